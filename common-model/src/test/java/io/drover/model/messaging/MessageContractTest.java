package io.drover.model.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.model.cell.CellDrains;
import io.drover.model.cell.CellSnapshot;
import io.drover.model.cell.CellState;
import io.drover.model.json.Json;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.AutoscalingPolicy;
import io.drover.model.lrp.ActualLrpSnapshot;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpSnapshot;
import io.drover.model.lrp.EnvVar;
import io.drover.model.lrp.ModificationTag;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.RunAction;
import io.drover.model.task.CallbackStatus;
import io.drover.model.task.TaskCallback;
import io.drover.model.task.TaskDefinition;
import io.drover.model.task.TaskSnapshot;
import io.drover.model.task.TaskState;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Kafka contract of SPEC 4 pinned by golden files in {@code src/test/resources/contracts}: each message record
 * serializes to exactly its file (snake_case), each file reads back to the record, and a file with a field this version
 * does not know still reads (adding a field is compatible; renaming one breaks these tests).
 */
class MessageContractTest {

    static final UUID MESSAGE_ID = UUID.fromString("6f1c1b52-3c1e-4d0b-9d55-0c1f4a7e2a01");
    static final UUID EPOCH = UUID.fromString("a3e0c9f2-7d4b-4a51-8c33-5b2f0e9d1c77");
    static final Instant AT = Instant.parse("2026-03-01T12:00:00.250Z");

    static final LrpStartRequested START = new LrpStartRequested(MESSAGE_ID, "web-app", "cf-apps", List.of(0, 1, 2),
            "desired");

    static final LrpsPlaced PLACED = new LrpsPlaced(MESSAGE_ID, "cell-z1-0",
            UUID.fromString("0b7e5d8c-1f2a-4c3b-9e4d-5a6b7c8d9e0f"), List.of(
                    new LrpsPlaced.Placement("web-app", 0, EPOCH, 3), new LrpsPlaced.Placement("web-app", 2, EPOCH, 1)));

    static final LrpStopRequested STOP = new LrpStopRequested(MESSAGE_ID, "cell-z1-0", "web-app", 4, "ig-4711",
            "scaled down");

    static final ConvergenceRequested CONVERGE = new ConvergenceRequested(MESSAGE_ID, "web-app",
            LifecycleEvent.DESIRED_LRP_CHANGED);

    static final ActualLrpSnapshot RUNNING = new ActualLrpSnapshot("web-app", 1, "cf-apps", "ig-4711", "cell-z1-0",
            "10.0.1.5", List.of(new NetInfo.PortMapping(8080, 61001)), ActualLrpState.RUNNING, 0, null, null,
            AT.toEpochMilli(), null, false, new ModificationTag(EPOCH, 4), 1);

    static final ActualLrpSnapshot CRASHED = new ActualLrpSnapshot("web-app", 1, "cf-apps", null, null, null,
            List.of(), ActualLrpState.CRASHED, 3, "exited with code 1", null, AT.plusSeconds(60).toEpochMilli(),
            AT.plusSeconds(90).toEpochMilli(), false, new ModificationTag(EPOCH, 5), 1);

    static final DesiredLrpSnapshot DESIRED = new DesiredLrpSnapshot(new DesiredLrpDefinition("web-app", "cf-apps",
            "preloaded:cflinuxfs4", 3,
            new Action(new RunAction("python3", List.of("-m", "http.server"), "/app",
                    List.of(new EnvVar("MODE", "prod")), new RunAction.ResourceLimits(1024L))),
            null, new CheckDefinition(List.of(new CheckDefinition.Check(null,
                    new CheckDefinition.HttpCheck(8080, "/health", 1000)))),
            60, List.of(new EnvVar("LANG", "C.UTF-8")), List.of(8080), 256, 1024, 100, 50, List.of("ssd"),
            "{\"cf-router\":[{\"hostnames\":[\"web.example.com\"],\"port\":8080}]}", "team a", "log-web",
            "metrics-web", new AutoscalingPolicy(1, 10, 60, null, 0, 300)), new ModificationTag(EPOCH, 2), AT,
            AT.plusSeconds(30));

    static final LifecycleEvent ACTUAL_CRASHED = new LifecycleEvent(MESSAGE_ID, LifecycleEvent.ACTUAL_LRP_CRASHED,
            asParsed(RUNNING), asParsed(CRASHED), AT.plusSeconds(60));

    static final LifecycleEvent DESIRED_CREATED = new LifecycleEvent(MESSAGE_ID, LifecycleEvent.DESIRED_LRP_CREATED,
            null, asParsed(DESIRED), AT);

    static final LrpStartRequested START_TASKS = LrpStartRequested.forTasks(MESSAGE_ID, "batch",
            List.of("report-7", "report-8"), "submitted");

    static final TasksPlaced TASKS_PLACED = new TasksPlaced(MESSAGE_ID, "cell-z1-0",
            UUID.fromString("0b7e5d8c-1f2a-4c3b-9e4d-5a6b7c8d9e0f"),
            List.of(new TasksPlaced.TaskPlacement("report-7", EPOCH, 256, 1024)));

    static final TaskCancelRequested TASK_CANCEL = new TaskCancelRequested(MESSAGE_ID, "cell-z1-0", "report-7",
            "cancelled");

    /** A cell's tasks as an auctioneer before issue 35 sent them: in an LRP auction result with no placements. */
    @SuppressWarnings("deprecation")
    static final LrpsPlaced LEGACY_TASKS_PLACED = new LrpsPlaced(MESSAGE_ID, "cell-z1-0",
            UUID.fromString("0b7e5d8c-1f2a-4c3b-9e4d-5a6b7c8d9e0f"), List.of(),
            List.of(new TasksPlaced.TaskPlacement("report-7", EPOCH)));

    /** A task's cancel as a lifecycle before issue 35 sent it: an LRP stop request with only a task_guid. */
    @SuppressWarnings("deprecation")
    static final LrpStopRequested LEGACY_TASK_STOP = new LrpStopRequested(MESSAGE_ID, "cell-z1-0", null, 0, null,
            "cancelled", "report-7");

    /** Every kind of action, nested: the JSON of the action column, the API and the events. */
    static final Action ACTION_TREE = Action.emittingProgress(Action.inSerial(List.of(
            Action.downloading("https://example.com/app.tgz", "app", "app-v1"),
            Action.trying(Action.withTimeout(new Action(new RunAction("./migrate", List.of("--dry-run"), "app",
                    List.of(), null)), 30_000)),
            Action.codependently(List.of(new Action(new RunAction("./serve", List.of(), null, List.of(), null)),
                    Action.inParallel(List.of(new Action(new RunAction("./watch", List.of(), null, List.of(),
                            null)))))))), "starting", "started", "failed to start");

    static final TaskDefinition TASK = new TaskDefinition("report-7", "batch", "preloaded:host",
            new Action(new RunAction("sh", List.of("-c", "echo 42 > out.txt"), null, List.of(), null)),
            List.of(new EnvVar("MODE", "full")), 128, 64, 50, 10, List.of("ssd"), "out.txt",
            "http://callbacks.example.com/done", "nightly", "log-report", null);

    static final TaskCallback CALLBACK_PENDING = new TaskCallback(CallbackStatus.PENDING, 0, null, null, null);

    static final TaskSnapshot TASK_RUNNING = new TaskSnapshot(TASK, TaskState.RUNNING, "cell-z1-0", false, null,
            "", null, AT, AT.plusSeconds(2), null, CALLBACK_PENDING, new ModificationTag(EPOCH, 2));

    static final TaskSnapshot TASK_COMPLETED = new TaskSnapshot(TASK, TaskState.COMPLETED, "cell-z1-0", false, null,
            "42\n", null, AT, AT.plusSeconds(9), AT.plusSeconds(9), CALLBACK_PENDING, new ModificationTag(EPOCH, 3));

    static final LifecycleEvent TASK_CHANGED = new LifecycleEvent(MESSAGE_ID, LifecycleEvent.TASK_CHANGED,
            asParsed(TASK_RUNNING), asParsed(TASK_COMPLETED), AT.plusSeconds(9));

    static final CellSnapshot CELL_ACTIVE = new CellSnapshot("cell-z1", "z1", "10.0.0.7", CellState.ACTIVE, null);
    static final CellSnapshot CELL_EVACUATING = new CellSnapshot("cell-z1", "z1", "10.0.0.7", CellState.EVACUATING,
            new CellSnapshot.Drain(AT, AT.plusSeconds(600), "ops"));
    static final LifecycleEvent CELL_CHANGED = new LifecycleEvent(MESSAGE_ID, CellDrains.CELL_CHANGED,
            asParsed(CELL_ACTIVE), asParsed(CELL_EVACUATING), AT);

    /** A snapshot as a consumer parses it (a small number is an int node there, whatever type wrote it). */
    static JsonNode asParsed(Object snapshot) {
        return Json.tree(Json.write(snapshot));
    }

    static Stream<Arguments> contracts() {
        return Stream.of(
                Arguments.of("lrp-start-requested.json", START),
                Arguments.of("lrps-placed.json", PLACED),
                Arguments.of("lrp-stop-requested.json", STOP),
                Arguments.of("convergence-requested.json", CONVERGE),
                Arguments.of("lifecycle-event-actual-crashed.json", ACTUAL_CRASHED),
                Arguments.of("lifecycle-event-desired-created.json", DESIRED_CREATED),
                Arguments.of("task-start-requested.json", START_TASKS),
                Arguments.of("tasks-placed.json", TASKS_PLACED),
                Arguments.of("task-cancel-requested.json", TASK_CANCEL),
                Arguments.of("action-tree.json", ACTION_TREE),
                Arguments.of("lifecycle-event-task-completed.json", TASK_CHANGED),
                Arguments.of("lifecycle-event-cell-changed.json", CELL_CHANGED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("contracts")
    void messageSerializesToItsGoldenFile(String file, Object message) {
        JsonNode written = Json.tree(Json.write(message));
        writeActualForReview(file, written);
        assertThat(written).isEqualTo(golden(file));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("contracts")
    void goldenFileReadsBackToTheMessage(String file, Object message) {
        assertThat(Json.read(golden(file).toString(), message.getClass())).isEqualTo(message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("contracts")
    void goldenFileWithAnAddedFieldStillReads(String file, Object message) {
        ObjectNode extended = (ObjectNode) golden(file);
        extended.put("field_of_a_later_version", "ignored");
        extended.putObject("another_new_field").put("nested", 1);
        assertThat(Json.read(extended.toString(), message.getClass())).isEqualTo(message);
    }

    @Test
    void eventsEncodedStraightFromTheSnapshotsAreTheGoldenFiles() {
        assertThat(Json.tree(new String(LifecycleEvent.encode(MESSAGE_ID, LifecycleEvent.ACTUAL_LRP_CRASHED, RUNNING,
                CRASHED, AT.plusSeconds(60)), StandardCharsets.UTF_8)))
                .isEqualTo(golden("lifecycle-event-actual-crashed.json"));
        assertThat(Json.tree(new String(LifecycleEvent.encode(MESSAGE_ID, LifecycleEvent.DESIRED_LRP_CREATED, null,
                DESIRED, AT), StandardCharsets.UTF_8))).isEqualTo(golden("lifecycle-event-desired-created.json"));
    }

    /** What {@code encode} wrote when the mapper wrote the whole event: the bytes the hand-written path must equal. */
    private record MapperWritten(UUID eventId, String type, Object before, Object after, Instant occurredAt) {
    }

    static Stream<Arguments> eventsOfEveryShape() {
        ActualLrpSnapshot unclaimed = new ActualLrpSnapshot("web-app", 0, "cf-apps", null, null, null, List.of(),
                ActualLrpState.UNCLAIMED, 0, null, null, AT.toEpochMilli(), null, false, new ModificationTag(EPOCH, 1),
                1);
        ActualLrpSnapshot escaped = new ActualLrpSnapshot("w\u00ebb-\"app\"", 2, "cf\\apps", "ig-1", "cell/1", "::1",
                List.of(new NetInfo.PortMapping(8080, 61001), new NetInfo.PortMapping(2222, 61002)),
                ActualLrpState.CLAIMED, Integer.MAX_VALUE, "line 1\nline 2\t\u2028 \u0000 \ud83d\ude00 \u00e9",
                "no cell with \"ssd\"", Long.MIN_VALUE, Long.MAX_VALUE, true, new ModificationTag(EPOCH, Long.MAX_VALUE),
                7);
        ActualLrpSnapshot nulls = new ActualLrpSnapshot(null, 0, null, null, null, null, null, null, 0, null, null, 0,
                null, false, null, 0);
        return Stream.of(
                Arguments.of(LifecycleEvent.ACTUAL_LRP_CREATED, null, unclaimed, AT),
                Arguments.of(LifecycleEvent.ACTUAL_LRP_CRASHED, RUNNING, CRASHED, AT.plusNanos(1)),
                Arguments.of(LifecycleEvent.ACTUAL_LRP_CHANGED, unclaimed, escaped, AT.plusNanos(1_000)),
                Arguments.of(LifecycleEvent.ACTUAL_LRP_REMOVED, nulls, null, Instant.EPOCH),
                Arguments.of(LifecycleEvent.ACTUAL_LRP_CHANGED, RUNNING, RUNNING, null),
                Arguments.of(LifecycleEvent.DESIRED_LRP_CREATED, null, DESIRED, AT),
                Arguments.of(LifecycleEvent.TASK_CHANGED, TASK_RUNNING, TASK_COMPLETED, AT.plusSeconds(1)),
                Arguments.of(LifecycleEvent.TASK_CREATED, null, new TaskSnapshot(new TaskDefinition("t\u00e9-\"1\"",
                        "batch", "preloaded:host", new Action(new RunAction("sh", List.of(), null, List.of(), null)),
                        List.of(), 0, 0, 0, 0, List.of(), null, null, null, null, null), TaskState.PENDING, null, false,
                        null, "", "no cells available", AT, AT, null, null, new ModificationTag(EPOCH, 0)), AT),
                Arguments.of(LifecycleEvent.TASK_REMOVED, new TaskSnapshot(TASK, TaskState.COMPLETED, "cell-z1-0",
                        true, "exited with status 2\n\u0000", "", null, AT, AT.plusSeconds(9), AT.plusSeconds(9),
                        new TaskCallback(CallbackStatus.GIVEN_UP, 10, 503, AT.plusSeconds(60), null), null), null,
                        AT));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("eventsOfEveryShape")
    void anEventIsEncodedToExactlyTheBytesTheMapperWritesForIt(String type, Object before, Object after,
            Instant occurredAt) {
        assertThat(new String(LifecycleEvent.encode(MESSAGE_ID, type, before, after, occurredAt),
                StandardCharsets.UTF_8)).isEqualTo(Json.write(new MapperWritten(MESSAGE_ID, type, before, after,
                        occurredAt)));
    }

    @Test
    void missingBeforeOrAfterReadsAsNull() {
        LifecycleEvent created = Json.read(golden("lifecycle-event-desired-created.json").toString(),
                LifecycleEvent.class);
        assertThat(created.before()).isNull();
        LifecycleEvent removed = Json.read("{\"event_id\":\"" + MESSAGE_ID + "\",\"type\":\"actual_lrp_removed\","
                + "\"before\":{\"index\":1},\"occurred_at\":\"2026-03-01T12:00:00Z\"}", LifecycleEvent.class);
        assertThat(removed.after()).isNull();
    }

    @Test
    void desiredSnapshotIsFlatInEvents() {
        JsonNode after = golden("lifecycle-event-desired-created.json").get("after");
        assertThat(after.has("definition")).isFalse();
        assertThat(after.get("process_guid").asString()).isEqualTo("web-app");
        assertThat(after.get("modification_tag").get("index").asLong()).isEqualTo(2);
    }

    @Test
    void desiredSnapshotReadsBackFromItsFlatForm() {
        JsonNode after = golden("lifecycle-event-desired-created.json").get("after");
        assertThat(Json.read(after.toString(), DesiredLrpSnapshot.class)).isEqualTo(DESIRED);
    }

    @Test
    void actualSnapshotsReadBackFromEvents() {
        JsonNode event = golden("lifecycle-event-actual-crashed.json");
        assertThat(Json.read(event.get("before").toString(), ActualLrpSnapshot.class)).isEqualTo(RUNNING);
        assertThat(Json.read(event.get("after").toString(), ActualLrpSnapshot.class)).isEqualTo(CRASHED);
    }

    @Test
    void cellSnapshotsReadBackFromEventsWrittenStraightFromThem() {
        JsonNode event = golden("lifecycle-event-cell-changed.json");
        assertThat(Json.tree(new String(LifecycleEvent.encode(MESSAGE_ID, CellDrains.CELL_CHANGED, CELL_ACTIVE,
                CELL_EVACUATING, AT), StandardCharsets.UTF_8))).isEqualTo(event);
        assertThat(Json.read(event.get("before").toString(), CellSnapshot.class)).isEqualTo(CELL_ACTIVE);
        assertThat(Json.read(event.get("after").toString(), CellSnapshot.class)).isEqualTo(CELL_EVACUATING);
    }

    @Test
    void taskSnapshotsReadBackFromEvents() {
        JsonNode event = golden("lifecycle-event-task-completed.json");
        assertThat(event.get("after").has("definition")).as("the definition is flat in a task").isFalse();
        assertThat(Json.read(event.get("before").toString(), TaskSnapshot.class)).isEqualTo(TASK_RUNNING);
        assertThat(Json.read(event.get("after").toString(), TaskSnapshot.class)).isEqualTo(TASK_COMPLETED);
    }

    /**
     * The message type each command is sent with (the {@link Topics#MESSAGE_TYPE_HEADER} header): part of the contract
     * like the fields, since a rep dispatches on it.
     */
    @Test
    void everyCommandIsSentWithItsMessageType() {
        assertThat(List.of(START, PLACED, STOP, CONVERGE, START_TASKS, TASKS_PLACED, TASK_CANCEL))
                .extracting(Command::messageType).containsExactly("lrp_start_requested", "lrps_placed",
                        "lrp_stop_requested", "convergence_requested", "lrp_start_requested", "tasks_placed",
                        "task_cancel_requested");
        assertThat(OutboxMessage.of(Topics.AUCTION_RESULTS, "cell-z1-0", TASKS_PLACED).type())
                .isEqualTo("tasks_placed");
        assertThat(OutboxMessage.of(Topics.LIFECYCLE_EVENTS, "web-app", DESIRED_CREATED).type())
                .as("an event is no command: its type goes in the event-type header").isNull();
    }

    /**
     * Records of the shapes before issue 35 (no type header) may sit in the per-cell topics during an upgrade: the
     * deprecated fields still read them.
     */
    @SuppressWarnings("deprecation")
    @Test
    void theTaskShapesBeforeTheirOwnMessageTypesStillRead() {
        assertThat(Json.read(golden("legacy-lrps-placed-with-tasks.json").toString(), LrpsPlaced.class))
                .isEqualTo(LEGACY_TASKS_PLACED).satisfies(p -> assertThat(p.placements()).isEmpty())
                .satisfies(p -> assertThat(p.tasks().get(0).hasNeed()).as("its cell reads the task").isFalse());
        LrpStopRequested stop = Json.read(golden("legacy-task-stop-requested.json").toString(),
                LrpStopRequested.class);
        assertThat(stop).isEqualTo(LEGACY_TASK_STOP);
        assertThat(stop.isForTask()).isTrue();
    }

    /**
     * The other way round, a rep from before issue 35 reading the new task messages as the only shapes it knows (the
     * topic's, ignoring the header): a placement keeps the old field names, so it still sees the same tasks to run. A
     * cancel it cannot read (no instance index) and skips; its task sync stops the process of a task no longer RUNNING
     * there, one sync interval later. So reps are upgraded first.
     */
    @SuppressWarnings("deprecation")
    @Test
    void aRepBeforeTheTaskMessageTypesStillRunsTheTasksPlacedOnIt() {
        LrpsPlaced asOldRepReadsIt = Json.read(golden("tasks-placed.json").toString(), LrpsPlaced.class);
        assertThat(asOldRepReadsIt.placements()).isEmpty();
        assertThat(asOldRepReadsIt.tasks()).isEqualTo(TASKS_PLACED.tasks());
        assertThatThrownBy(() -> Json.read(golden("task-cancel-requested.json").toString(), LrpStopRequested.class))
                .as("no index: unreadable as a stop request").isInstanceOf(RuntimeException.class);
    }

    @Test
    void lrpMessagesDoNotCarryTheTaskFields() {
        assertThat(golden("lrps-placed.json").has("tasks")).isFalse();
        assertThat(golden("lrp-start-requested.json").has("task_guids")).isFalse();
        assertThat(golden("lrp-stop-requested.json").has("task_guid")).isFalse();
        assertThat(golden("task-start-requested.json").get("process_guid").isNull())
                .as("an old auctioneer drops a request without a process_guid").isTrue();
    }

    @Test
    void aPlainRunActionIsStillJustRun() {
        Action run = new Action(new RunAction("sh", List.of(), null, List.of(), null));
        assertThat(Json.tree(Json.write(run)).propertyNames()).containsExactly("run");
        assertThat(run.kind()).isEqualTo(Action.Kind.RUN);
        assertThat(ACTION_TREE.kind()).isEqualTo(Action.Kind.EMIT_PROGRESS);
        assertThat(ACTION_TREE.runs()).extracting(RunAction::path).containsExactly("./migrate", "./serve", "./watch");
    }

    static JsonNode golden(String file) {
        try (InputStream in = MessageContractTest.class.getResourceAsStream("/contracts/" + file)) {
            if (in == null) {
                throw new IllegalStateException("no golden file contracts/" + file);
            }
            return Json.tree(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Leaves what this version writes next to the test output, so a failing comparison is easy to diff. */
    private static void writeActualForReview(String file, JsonNode written) {
        try {
            Path dir = Path.of("target", "contracts-actual");
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(file), Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(written));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
