package io.drover.model.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The strategy of an automatic revert, as a table: the failed deployment's pace, its deadline raised to the default. */
class StrategyTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a short deadline is raised to the default      | 2   | 0   | 1  | 5    | 1 | 2   | 0   | 1  | 600
            the default deadline is kept                   | 25% | 0   | 10 | 600  | 0 | 25% | 0   | 10 | 600
            a longer deadline is kept                      | 1   | 50% | 30 | 3600 | 0 | 1   | 50% | 30 | 3600
            a canary deployment reverts without a canary   | 1   | 0   | 0  | 60   | 2 | 1   | 0   | 0  | 600
            """)
    void aRevertRollsAtTheFailedDeploymentsPaceWithAtLeastTheDefaultDeadline(String name, String surge,
            String unavailable, long healthy, long deadline, int canary, String revertSurge, String revertUnavailable,
            long revertHealthy, long revertDeadline) {
        Strategy failed = new Strategy(Amount.parse(surge), Amount.parse(unavailable), Duration.ofSeconds(healthy),
                Duration.ofSeconds(deadline), true, canary);

        assertThat(failed.revert()).isEqualTo(new Strategy(Amount.parse(revertSurge), Amount.parse(revertUnavailable),
                Duration.ofSeconds(revertHealthy), Duration.ofSeconds(revertDeadline), false, 0));
    }
}
