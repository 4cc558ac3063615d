package io.drover.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.verify.check.CheckResult;
import io.drover.verify.history.History;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ReportTest {

    @Test
    void theSummaryLineCountsOpsFaultsAndAnomalies() {
        assertThat(Report.summary(outcome(List.of(CheckResult.ran("tasks", List.of(), Map.of())), Set.of()), 17))
                .isEqualTo("verify: 3,048 ops, 8 faults, 0 anomalies (seed 17)");
    }

    @Test
    void theSummaryLineNamesTheChecksSkippedAndTheFaultsTheClusterCouldNotInject() {
        VerifyRun.Outcome outcome = outcome(List.of(CheckResult.skipped("events", "no event stream recorded")),
                new TreeSet<>(Set.of("message-faults", "leader-freeze")));

        assertThat(Report.summary(outcome, 5)).isEqualTo("verify: 3,048 ops, 8 faults, 0 anomalies, skipped: events "
                + "(no event stream recorded), not injected here: leader-freeze, message-faults (seed 5)");
    }

    private static VerifyRun.Outcome outcome(List<CheckResult> results, Set<String> notInjected) {
        return new VerifyRun.Outcome(History.of(), Path.of("run.jsonl"), results, 3048, 8, notInjected);
    }
}
