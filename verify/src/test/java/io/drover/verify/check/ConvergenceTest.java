package io.drover.verify.check;

import static io.drover.verify.check.Calls.ms;
import static io.drover.verify.check.Fixtures.actual;
import static io.drover.verify.check.Fixtures.fault;
import static io.drover.verify.check.Fixtures.meta;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.json.Json;
import io.drover.verify.history.Entry;
import io.drover.verify.history.History;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConvergenceTest {

    private static final String DESIRED = "[{\"process_guid\": \"a\", \"instances\": 2, \"definition_version\": 2}]";
    private static final String CELLS = """
            [{"cell_id": "cell-z1", "capacity": {"containers": 64}, "available": {"containers": 63}},
             {"cell_id": "cell-z2", "capacity": {"containers": 64}, "available": {"containers": 63}}]""";
    private static final List<Entry.WorkloadProcess> PROCESSES = List.of(
            new Entry.WorkloadProcess(11, "a", 0, "i1", "l", "cell-z1", 61001),
            new Entry.WorkloadProcess(12, "a", 1, "i2", "l", "cell-z2", 61301));

    private static Entry.Snapshot snapshot(double at, String desired, String cells, List<Entry.WorkloadProcess> processes,
            String tasks, String... actuals) {
        return new Entry.Snapshot(ms(at), Json.tree(desired), Json.tree("[" + String.join(",", actuals) + "]"),
                Json.tree(cells), Json.tree(tasks), Json.tree("{\"a\": [{\"id\": \"d1\", \"state\": \"SUCCESSFUL\"}]}"),
                processes);
    }

    private static final String I1 = actual("a", 0, "i1", "cell-z1", "RUNNING", 2, false, 3);
    private static final String I2 = actual("a", 1, "i2", "cell-z2", "RUNNING", 2, false, 3);

    @Test
    void aClusterRunningExactlyWhatIsDesiredHasConverged() {
        assertThat(Convergence.violations(snapshot(0, DESIRED, CELLS, PROCESSES, "[]", I1, I2), Set.of("a"))).isEmpty();
    }

    @Test
    void eachWayOfNotBeingConvergedIsNamed() {
        assertThat(Convergence.violations(snapshot(0, DESIRED, CELLS, PROCESSES, "[]", I1,
                actual("a", 1, "i2", "cell-z2", "RUNNING", 1, false, 3)), Set.of("a")))
                .anyMatch(v -> v.contains("runs definition version 1, current is 2"));
        assertThat(Convergence.violations(snapshot(0, DESIRED, CELLS, PROCESSES, "[]", I1,
                actual("a", 1, null, null, "UNCLAIMED", 2, false, 3)), Set.of("a")))
                .anyMatch(v -> v.contains("a/1: UNCLAIMED")).anyMatch(v -> v.contains("outlives its record"));
        assertThat(Convergence.violations(snapshot(0, DESIRED, CELLS, List.of(PROCESSES.get(0)), "[]", I1, I2),
                Set.of("a"))).anyMatch(v -> v.contains("has no process"));
        assertThat(Convergence.violations(snapshot(0, DESIRED, CELLS.replace("63}}]", "62}}]"), PROCESSES, "[]", I1, I2),
                Set.of("a"))).containsExactly("cell cell-z2 counts 2 containers in use, holds 1");
        assertThat(Convergence.violations(snapshot(0, "[]", CELLS, PROCESSES, "[]", I1, I2), Set.of("a")))
                .anyMatch(v -> v.contains("a: not desired, 2 instance records left"));
        assertThat(Convergence.violations(snapshot(0, DESIRED, CELLS, PROCESSES,
                "[{\"task_guid\": \"t\", \"state\": \"RUNNING\"}]", I1, I2), Set.of("a")))
                .containsExactly("task t still RUNNING");
    }

    @Test
    void anLrpWhoseCurrentDefinitionIsTheBrokenOneHasConvergedWithARecordPerIndexWhateverItsState() {
        // a broken deployment that succeeded while the LRP had no instance, then a scale-up: its instances crash
        String broken = "[{\"process_guid\": \"a\", \"instances\": 2, \"definition_version\": 2,"
                + " \"action\": {\"run\": {\"path\": \"sh\", \"args\": [\"-c\", \"exit 3\", \"m\"]}}}]";
        String crashed = actual("a", 0, null, null, "CRASHED", 2, false, 5);
        String restarting = actual("a", 1, "i2", "cell-z2", "CLAIMED", 2, false, 6);
        String cells = CELLS.replaceFirst("63}", "64}");
        assertThat(Convergence.violations(snapshot(0, broken, cells, List.of(), "[]", crashed, restarting),
                Set.of("a"))).isEmpty();
        assertThat(Convergence.violations(snapshot(0, broken, CELLS.replace("63}", "64}"), List.of(), "[]", crashed),
                Set.of("a"))).containsExactly("a: 1 of 2 instance records of a broken definition");
        assertThat(Convergence.violations(snapshot(0, DESIRED, cells, List.of(), "[]", crashed, restarting),
                Set.of("a"))).contains("a/0: CRASHED", "a: 0 of 2 RUNNING at the current version");
    }

    @Test
    void convergenceCountsFromTheSnapshotAfterWhichItHeld() {
        // settles for 2 x sync interval + stop grace = 8 s
        CheckResult result = Convergence.check(History.of(meta("a"), fault(FaultKinds.KAFKA, "broker", 0, 10_000),
                snapshot(11_000, DESIRED, CELLS, PROCESSES, "[]", I1), snapshot(14_000, DESIRED, CELLS, PROCESSES, "[]",
                        I1, I2), snapshot(18_000, DESIRED, CELLS, PROCESSES, "[]", I1, I2),
                snapshot(22_000, DESIRED, CELLS, PROCESSES, "[]", I1, I2)));
        assertThat(result.anomalies()).isEmpty();
        assertThat(result.figures()).containsEntry("converged_after_s", 4.0);
    }

    @Test
    void aMomentOfConvergenceThatDoesNotHoldIsNotConvergence() {
        // converged while a restart was in flight: the record still there, then gone and never replaced
        CheckResult result = Convergence.check(History.of(meta("a"), fault(FaultKinds.KAFKA, "broker", 0, 10_000),
                snapshot(11_000, DESIRED, CELLS, PROCESSES, "[]", I1, I2),
                snapshot(14_000, DESIRED, CELLS, List.of(PROCESSES.get(0)), "[]", I1),
                snapshot(69_000, DESIRED, CELLS, List.of(PROCESSES.get(0)), "[]", I1)));
        assertThat(result.anomalies()).singleElement()
                .satisfies(a -> assertThat(a.excerpt()).anyMatch(v -> v.contains("1 of 2 RUNNING")));
        CheckResult tooShort = Convergence.check(History.of(meta("a"), fault(FaultKinds.KAFKA, "broker", 0, 10_000),
                snapshot(66_000, DESIRED, CELLS, PROCESSES, "[]", I1, I2),
                snapshot(69_000, DESIRED, CELLS, PROCESSES, "[]", I1, I2)));
        assertThat(tooShort.anomalies()).singleElement()
                .satisfies(a -> assertThat(a.message()).contains("converged only 3.0 s"));
    }

    @Test
    void notConvergedByTheDeadlineIsAnAnomaly() {
        // deadline: 60 s after the fault was healed at 10 s
        CheckResult result = Convergence.check(History.of(meta("a"), fault(FaultKinds.KAFKA, "broker", 0, 10_000),
                snapshot(11_000, DESIRED, CELLS, PROCESSES, "[]", I1),
                snapshot(71_000, DESIRED, CELLS, PROCESSES, "[]", I1, I2)));
        assertThat(result.anomalies()).singleElement()
                .satisfies(a -> assertThat(a.excerpt()).anyMatch(v -> v.contains("1 of 2 RUNNING")));
    }
}
