package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.lrp.RunAction;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProcessLauncherTest {

    private final ProcessLauncher launcher = new ProcessLauncher();

    @ParameterizedTest
    @CsvSource({ "0, 0", "100, 0", "80, 1", "50, 3", "25, 6", "10, 10", "1, 19" })
    void cpuWeightBecomesANiceLevelKeepingTheWeightsRatio(int cpuWeight, int niceness) {
        assertThat(ProcessLauncher.niceness(cpuWeight)).isEqualTo(niceness);
    }

    @Test
    void commandRunsInItsOwnSessionWithItsLimits() {
        RunAction action = new RunAction("server", List.of("--port", "8080"), null, List.of(),
                new RunAction.ResourceLimits(1024L));

        List<String> command = launcher.command(action, 50);

        assertThat(command).endsWith("server", "--port", "8080");
        assertThat(String.join(" ", command)).contains("setsid -w").contains("nice -n 3")
                .contains("prlimit --nofile=1024:1024 --");
    }

    @Test
    void plainActionIsOnlyWrappedInItsSession() {
        List<String> command = launcher.command(new RunAction("sleep", List.of("1"), null, List.of(), null), 0);

        assertThat(command).hasSize(4).endsWith("sleep", "1");
    }
}
