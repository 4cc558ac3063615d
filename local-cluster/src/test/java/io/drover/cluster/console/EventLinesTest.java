package io.drover.cluster.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.cluster.console.EventLines.CellSeen;
import io.drover.model.json.Json;
import io.drover.model.messaging.LifecycleEvent;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EventLinesTest {

    private static final String RUNNING = "{\"process_guid\":\"web\",\"index\":1,\"state\":\"RUNNING\",\"cell_id\":\"cell-z1\","
            + "\"crash_count\":0}";

    private static final String DEPLOYMENT_RUNNING = "{\"process_guid\":\"web\",\"state\":\"RUNNING\","
            + "\"from_version\":1,\"to_version\":2,\"created_by\":\"alice\",\"failure_reason\":null}";

    private static final String CELL_ACTIVE = "{\"cell_id\":\"cell-z1\",\"state\":\"ACTIVE\",\"drain\":null}";

    private static final String CELL_EVACUATING = "{\"cell_id\":\"cell-z1\",\"state\":\"EVACUATING\",\"drain\":"
            + "{\"started_at\":\"1970-01-01T00:00:00Z\",\"deadline_at\":\"1970-01-01T00:10:00Z\","
            + "\"requested_by\":\"alice\"}}";

    static Stream<Arguments> lifecycle() {
        return Stream.of(
                Arguments.of("crash restarted at once", LifecycleEvent.ACTUAL_LRP_CRASHED, RUNNING,
                        "{\"process_guid\":\"web\",\"index\":1,\"state\":\"UNCLAIMED\",\"crash_count\":1,"
                                + "\"crash_reason\":\"exited with status 1\"}",
                        "web/1 crashed on cell-z1: exited with status 1 (crash 1, restarting now)"),
                Arguments.of("crash backing off", LifecycleEvent.ACTUAL_LRP_CRASHED, RUNNING,
                        "{\"process_guid\":\"web\",\"index\":1,\"state\":\"CRASHED\",\"crash_count\":3,"
                                + "\"crash_reason\":\"killed by signal 9\",\"next_restart_at\":1767225630000}",
                        "web/1 crashed on cell-z1: killed by signal 9 (crash 3, next restart at 00:00:30)"),
                Arguments.of("crashed for good", LifecycleEvent.ACTUAL_LRP_CRASHED, RUNNING,
                        "{\"process_guid\":\"web\",\"index\":1,\"state\":\"CRASHED\",\"crash_count\":200,"
                                + "\"crash_reason\":\"out of memory\",\"next_restart_at\":null}",
                        "web/1 crashed on cell-z1: out of memory (crash 200, not restarted again)"),
                Arguments.of("a new placement failure", LifecycleEvent.ACTUAL_LRP_CHANGED,
                        "{\"process_guid\":\"big\",\"index\":0,\"state\":\"UNCLAIMED\"}",
                        "{\"process_guid\":\"big\",\"index\":0,\"state\":\"UNCLAIMED\","
                                + "\"placement_error\":\"insufficient resources: memory\"}",
                        "big/0 cannot be placed: insufficient resources: memory"),
                Arguments.of("the same failure again", LifecycleEvent.ACTUAL_LRP_CHANGED,
                        "{\"process_guid\":\"big\",\"index\":0,\"placement_error\":\"insufficient resources: memory\"}",
                        "{\"process_guid\":\"big\",\"index\":0,\"placement_error\":\"insufficient resources: memory\"}",
                        null),
                Arguments.of("an instance starting", LifecycleEvent.ACTUAL_LRP_CHANGED,
                        "{\"process_guid\":\"web\",\"index\":1,\"state\":\"CLAIMED\"}", RUNNING, null),
                Arguments.of("a desired LRP", LifecycleEvent.DESIRED_LRP_CREATED, null,
                        "{\"process_guid\":\"web\",\"instances\":3}", null),
                Arguments.of("a deployment started", "deployment_changed", null, DEPLOYMENT_RUNNING,
                        "web deployment v1 -> v2 started by alice"),
                Arguments.of("a deployment reverted", "deployment_changed", DEPLOYMENT_RUNNING,
                        DEPLOYMENT_RUNNING.replace("RUNNING", "REVERTED").replace("null", "\"it crashed\""),
                        "web deployment v1 -> v2 reverted: it crashed"),
                Arguments.of("a deployment waiting", "deployment_changed", DEPLOYMENT_RUNNING,
                        DEPLOYMENT_RUNNING.replace("RUNNING", "WAITING_FOR_PROMOTION"),
                        "web deployment v1 -> v2 waiting for promotion"),
                Arguments.of("a deployment's progress", "deployment_changed", DEPLOYMENT_RUNNING,
                        DEPLOYMENT_RUNNING, null),
                Arguments.of("a cell drained by an operator", "cell_changed", CELL_ACTIVE, CELL_EVACUATING,
                        "cell cell-z1 draining, asked by alice (deadline 00:10:00)"),
                Arguments.of("a cell's drain done", "cell_changed", CELL_EVACUATING,
                        CELL_EVACUATING.replace("EVACUATING", "DRAINED"),
                        "cell cell-z1 drained: nothing runs there, it takes no work until undrained"),
                Arguments.of("a cell undrained", "cell_changed", CELL_EVACUATING.replace("EVACUATING", "DRAINED"),
                        CELL_ACTIVE, "cell cell-z1 undrained: it takes work again"),
                Arguments.of("a drain's new deadline", "cell_changed", CELL_EVACUATING, CELL_EVACUATING, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void lifecycle(String name, String type, String before, String after, String line) {
        LifecycleEvent event = new LifecycleEvent(UUID.randomUUID(), type, json(before), json(after), Instant.EPOCH);
        assertThat(EventLines.lifecycle(event, ZoneOffset.UTC)).isEqualTo(Optional.ofNullable(line));
    }

    @Test
    void cellsJoiningLostBackAndGoneAreEachOneLine() {
        Map<String, CellSeen> before = Map.of("cell-z1", new CellSeen("z1", true), "cell-z2", new CellSeen("z2", true),
                "cell-z3", new CellSeen("z3", false), "cell-z4", new CellSeen("z4", true));
        Map<String, CellSeen> after = Map.of("cell-z1", new CellSeen("z1", true), "cell-z2", new CellSeen("z2", false),
                "cell-z3", new CellSeen("z3", true), "cell-z5", new CellSeen("z5", true),
                "cell-z6", new CellSeen("z6", false));
        assertThat(EventLines.cells(before, after)).containsExactly("cell cell-z2 lost (its presence expired)",
                "cell cell-z3 is back", "cell cell-z4 left", "cell cell-z5 joined (zone z5)");
    }

    @Test
    void repairsAreTheActionsAppliedSinceTheLastLookByRule() {
        assertThat(EventLines.repairs(Map.of("lost-cell", 2.0, "missing-index", 1.0),
                Map.of("lost-cell", 5.0, "missing-index", 1.0, "stale-unclaimed", 1.0)))
                .contains("convergence repaired 4 (lost-cell 3, stale-unclaimed 1)");
        assertThat(EventLines.repairs(Map.of("lost-cell", 2.0), Map.of("lost-cell", 2.0))).isEmpty();
    }

    private static tools.jackson.databind.JsonNode json(String text) {
        return text == null ? null : Json.MAPPER.readTree(text);
    }
}
