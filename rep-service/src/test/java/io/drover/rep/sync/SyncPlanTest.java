package io.drover.rep.sync;

import static io.drover.model.lrp.ActualLrpState.CLAIMED;
import static io.drover.model.lrp.ActualLrpState.CRASHED;
import static io.drover.model.lrp.ActualLrpState.RUNNING;
import static io.drover.model.lrp.ActualLrpState.UNCLAIMED;
import static io.drover.rep.evacuation.Drain.Mode.DEADLINE_PASSED;
import static io.drover.rep.evacuation.Drain.Mode.EVACUATING;
import static io.drover.rep.evacuation.Drain.Mode.NORMAL;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.NetInfo;
import io.drover.rep.evacuation.Drain;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.records.RecordView;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SyncPlanTest {

    private static final String HERE = "cell-a";
    private static final ActualLrpKey KEY = ActualLrpKey.of("app", 0);

    /** container state (null = none), record (state, instance guid, cell; null = none), mode → the one expected action. */
    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("running container with no record is recorded", ContainerState.RUNNING, null, NORMAL,
                        SyncAction.Start.class),
                Arguments.of("running container with its record running is left alone", ContainerState.RUNNING,
                        record(RUNNING, "g1", HERE), NORMAL, null),
                Arguments.of("running container with its record still claimed is started", ContainerState.RUNNING,
                        record(CLAIMED, "g1", HERE), NORMAL, SyncAction.Start.class),
                Arguments.of("running container whose record was unclaimed takes it back", ContainerState.RUNNING,
                        record(UNCLAIMED, null, null), NORMAL, SyncAction.Start.class),
                Arguments.of("container whose slot another cell runs is destroyed", ContainerState.RUNNING,
                        record(RUNNING, "g2", "cell-b"), NORMAL, SyncAction.Destroy.class),
                Arguments.of("container whose slot another cell claimed is destroyed", ContainerState.RUNNING,
                        record(CLAIMED, "g2", "cell-b"), NORMAL, SyncAction.Destroy.class),
                Arguments.of("starting container whose slot another cell runs is destroyed",
                        ContainerState.STARTING, record(RUNNING, "g2", "cell-b"), NORMAL, SyncAction.Destroy.class),
                Arguments.of("starting container waits for its health", ContainerState.STARTING,
                        record(CLAIMED, "g1", HERE), NORMAL, null),
                Arguments.of("crashed container is recorded as a crash", ContainerState.CRASHED,
                        record(RUNNING, "g1", HERE), NORMAL, SyncAction.Crash.class),
                Arguments.of("stopped container removes its record", ContainerState.STOPPED,
                        record(RUNNING, "g1", HERE), NORMAL, SyncAction.Remove.class),
                Arguments.of("record claimed here with no container is removed", null, record(CLAIMED, "g1", HERE),
                        NORMAL, SyncAction.Remove.class),
                Arguments.of("record running here with no container is removed", null, record(RUNNING, "g1", HERE),
                        NORMAL, SyncAction.Remove.class),
                Arguments.of("evacuating: own record is handed over, container kept", ContainerState.RUNNING,
                        record(RUNNING, "g1", HERE), EVACUATING, SyncAction.Evacuate.class),
                Arguments.of("evacuating: unclaimed record keeps the old container serving", ContainerState.RUNNING,
                        record(UNCLAIMED, null, null), EVACUATING, null),
                Arguments.of("evacuating: crashed record keeps the old container serving", ContainerState.RUNNING,
                        record(CRASHED, null, null), EVACUATING, null),
                Arguments.of("evacuating: replacement claimed elsewhere keeps the old one", ContainerState.RUNNING,
                        record(CLAIMED, "g2", "cell-b"), EVACUATING, null),
                Arguments.of("evacuating: replacement running elsewhere stops the old one", ContainerState.RUNNING,
                        record(RUNNING, "g2", "cell-b"), EVACUATING, SyncAction.Destroy.class),
                Arguments.of("evacuating: a container no record wants is stopped, never recorded again",
                        ContainerState.RUNNING, null, EVACUATING, SyncAction.Destroy.class),
                Arguments.of("evacuating: running container is never re-recorded", ContainerState.RUNNING,
                        record(UNCLAIMED, null, null), EVACUATING, null),
                Arguments.of("a stop asked of the container's record is repeated", ContainerState.RUNNING,
                        asked(RUNNING, "g1", HERE), NORMAL, SyncAction.Stop.class),
                Arguments.of("a stop asked while it starts is repeated", ContainerState.STARTING,
                        asked(CLAIMED, "g1", HERE), NORMAL, SyncAction.Stop.class),
                Arguments.of("evacuating: a stop asked is repeated, not handed over", ContainerState.RUNNING,
                        asked(RUNNING, "g1", HERE), EVACUATING, SyncAction.Stop.class),
                Arguments.of("a stop asked of another incarnation is not this container's", ContainerState.RUNNING,
                        asked(RUNNING, "g2", "cell-b"), NORMAL, SyncAction.Destroy.class),
                Arguments.of("deadline passed: everything still here is stopped", ContainerState.RUNNING,
                        record(UNCLAIMED, null, null), DEADLINE_PASSED, SyncAction.Destroy.class));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(String name, ContainerState container, RecordView record, Drain.Mode mode,
            Class<? extends SyncAction> expected) {
        List<Container> containers = container == null ? List.of() : List.of(container("g1", container));
        Map<ActualLrpKey, RecordView> records = new HashMap<>();
        if (record != null) {
            records.put(KEY, record);
        }

        List<SyncAction> actions = SyncPlan.plan(HERE, containers, records, Map.of(), Set.of(), mode);

        if (expected == null) {
            assertThat(actions).isEmpty();
        } else {
            assertThat(actions).singleElement().isInstanceOf(expected);
        }
    }

    /** A draining cell holding the evacuating twin of g1: container state (null = none), the slot's record → action. */
    static Stream<Arguments> twinCases() {
        return Stream.of(
                Arguments.of("slot waiting for its replacement: keep serving", ContainerState.RUNNING,
                        record(UNCLAIMED, null, null), null),
                Arguments.of("replacement claimed elsewhere: keep serving", ContainerState.RUNNING,
                        record(CLAIMED, "g2", "cell-b"), null),
                Arguments.of("replacement crashed: keep serving", ContainerState.RUNNING, record(CRASHED, null, null),
                        null),
                Arguments.of("replacement running elsewhere: deregister the twin first", ContainerState.RUNNING,
                        record(RUNNING, "g2", "cell-b"), SyncAction.Remove.class),
                Arguments.of("slot retired (scaled down, deleted): stop", ContainerState.RUNNING, null,
                        SyncAction.Destroy.class),
                Arguments.of("container crashed: the crash is recorded (and the twin goes)", ContainerState.CRASHED,
                        record(UNCLAIMED, null, null), SyncAction.Crash.class),
                Arguments.of("container stopped: the twin is removed", ContainerState.STOPPED,
                        record(RUNNING, "g2", "cell-b"), SyncAction.Remove.class),
                Arguments.of("container gone: the twin is removed", null, record(UNCLAIMED, null, null),
                        SyncAction.Remove.class));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("twinCases")
    void aDrainingCellServesFromItsTwinUntilTheSlotRunsElsewhere(String name, ContainerState container,
            RecordView record, Class<? extends SyncAction> expected) {
        List<Container> containers = container == null ? List.of() : List.of(container("g1", container));
        Map<ActualLrpKey, RecordView> records = new HashMap<>();
        if (record != null) {
            records.put(KEY, record);
        }

        List<SyncAction> actions = SyncPlan.plan(HERE, containers, records, Map.of(KEY, record(RUNNING, "g1", HERE)),
                Set.of(), EVACUATING);

        if (expected == null) {
            assertThat(actions).isEmpty();
        } else {
            assertThat(actions).singleElement().isInstanceOf(expected);
        }
    }

    /**
     * A cell that stopped draining with its instances half handed over (undrained by an operator, or its rep restarted
     * without its own drain) keeps each old instance serving from its twin until the slot runs elsewhere, as a draining
     * cell does: stopping it when the replacement is only claimed would leave the listed address unanswered.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("twinCases")
    void aCellNoLongerDrainingServesFromItsTwinsUntilTheirSlotsRunElsewhere(String name, ContainerState container,
            RecordView record, Class<? extends SyncAction> expected) {
        List<Container> containers = container == null ? List.of() : List.of(container("g1", container));
        Map<ActualLrpKey, RecordView> records = new HashMap<>();
        if (record != null) {
            records.put(KEY, record);
        }

        List<SyncAction> actions = SyncPlan.plan(HERE, containers, records, Map.of(KEY, record(RUNNING, "g1", HERE)),
                Set.of(), NORMAL);

        if (expected == null) {
            assertThat(actions).isEmpty();
        } else {
            assertThat(actions).singleElement().isInstanceOf(expected);
        }
    }

    /** A cell (not draining) holding g1's twin kept by a deployment: container, slot's record → action. */
    static Stream<Arguments> deploymentTwinCases() {
        return Stream.of(
                Arguments.of("new instance waiting for a cell: keep serving", ContainerState.RUNNING,
                        record(UNCLAIMED, null, null), null),
                Arguments.of("new instance starting elsewhere: keep serving", ContainerState.RUNNING,
                        record(CLAIMED, "g2", "cell-b"), null),
                Arguments.of("new instance running but not yet healthy long enough: keep serving",
                        ContainerState.RUNNING, record(RUNNING, "g2", "cell-b"), null),
                Arguments.of("new instance crashed: keep serving", ContainerState.RUNNING, record(CRASHED, null, null),
                        null),
                Arguments.of("slot's record gone while it is recreated: keep serving", ContainerState.RUNNING, null,
                        null),
                Arguments.of("container crashed: the crash is recorded (and the twin goes)", ContainerState.CRASHED,
                        record(UNCLAIMED, null, null), SyncAction.Crash.class),
                Arguments.of("container stopped: the twin is removed", ContainerState.STOPPED,
                        record(RUNNING, "g2", "cell-b"), SyncAction.Remove.class),
                Arguments.of("container gone: the twin is removed", null, record(RUNNING, "g2", "cell-b"),
                        SyncAction.Remove.class));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("deploymentTwinCases")
    void aDeploymentsTwinServesUntilTheDeployerRemovesIt(String name, ContainerState container, RecordView record,
            Class<? extends SyncAction> expected) {
        List<Container> containers = container == null ? List.of() : List.of(container("g1", container));
        Map<ActualLrpKey, RecordView> records = new HashMap<>();
        if (record != null) {
            records.put(KEY, record);
        }
        RecordView twin = new RecordView(KEY, RUNNING, "g1", HERE, null, UUID.randomUUID(), null, true);

        List<SyncAction> actions = SyncPlan.plan(HERE, containers, records, Map.of(KEY, twin), Set.of(), NORMAL);

        if (expected == null) {
            assertThat(actions).isEmpty();
        } else {
            assertThat(actions).singleElement().isInstanceOf(expected);
        }
    }

    /**
     * A twin asked to stop (its slot retired, or its deployment's new instance healthy) keeps the mark until its cell
     * removes it: the sync stops its container from the mark, so a stop request lost on the way is repeated, draining
     * or not, deployment's or drain's.
     */
    @ParameterizedTest(name = "kept for deployment {0}, {1}")
    @MethodSource("askedTwins")
    void aTwinAskedToStopIsStoppedFromItsMark(boolean keptForDeployment, Drain.Mode mode) {
        RecordView twin = new RecordView(KEY, RUNNING, "g1", HERE, null, UUID.randomUUID(), "scaled down",
                keptForDeployment);

        List<SyncAction> actions = SyncPlan.plan(HERE, List.of(container("g1", ContainerState.RUNNING)), Map.of(),
                Map.of(KEY, twin), Set.of(), mode);

        assertThat(actions).singleElement().isInstanceOfSatisfying(SyncAction.Stop.class,
                stop -> assertThat(stop.reason()).isEqualTo("scaled down"));
    }

    static Stream<Arguments> askedTwins() {
        return Stream.of(Arguments.of(true, NORMAL), Arguments.of(false, NORMAL),
                Arguments.of(false, Drain.Mode.EVACUATING));
    }

    @org.junit.jupiter.api.Test
    void aRemovedDeploymentTwinsContainerIsDestroyedNotRecordedAgain() {
        List<SyncAction> actions = SyncPlan.plan(HERE, List.of(container("g1", ContainerState.RUNNING)),
                Map.of(KEY, record(RUNNING, "g2", "cell-b")), Map.of(), Set.of(), NORMAL);

        assertThat(actions).singleElement().isInstanceOf(SyncAction.Destroy.class);
    }

    @org.junit.jupiter.api.Test
    void anOldIncarnationIsDestroyedAndTheRecordOfAVanishedOneRemoved() {
        List<SyncAction> actions = SyncPlan.plan(HERE, List.of(container("g1", ContainerState.RUNNING)),
                Map.of(KEY, record(CLAIMED, "g2", HERE)), Map.of(), Set.of(), NORMAL);

        assertThat(actions).hasSize(2).hasAtLeastOneElementOfType(SyncAction.Destroy.class)
                .hasAtLeastOneElementOfType(SyncAction.Remove.class);
    }

    @ParameterizedTest(name = "busy {0} container is left alone")
    @MethodSource("busyStates")
    void busyContainersAreLeftAloneUntilTheirStopEnds(ContainerState state, int expectedActions) {
        List<SyncAction> actions = SyncPlan.plan(HERE, List.of(container("g1", state)),
                Map.of(KEY, record(RUNNING, "g2", "cell-b")), Map.of(), Set.of("g1"), NORMAL);

        assertThat(actions).hasSize(expectedActions);
    }

    static Stream<Arguments> busyStates() {
        return Stream.of(Arguments.of(ContainerState.RUNNING, 0), Arguments.of(ContainerState.STARTING, 0),
                Arguments.of(ContainerState.STOPPED, 1), Arguments.of(ContainerState.CRASHED, 1));
    }

    private static Container container(String guid, ContainerState state) {
        return new Container(KEY, guid, "d", state, new NetInfo("10.0.0.1", List.of()), null);
    }

    private static RecordView asked(ActualLrpState state, String guid, String cell) {
        return new RecordView(KEY, state, guid, cell, null, UUID.randomUUID(), "scaled down");
    }

    private static RecordView record(ActualLrpState state, String guid, String cell) {
        return new RecordView(KEY, state, guid, cell, null, UUID.randomUUID());
    }
}
