package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExitStatusTest {

    @ParameterizedTest
    @CsvSource({ "0, exited with status 0", "3, exited with status 3", "128, exited with status 128",
            "137, killed by signal 9", "143, killed by signal 15", "255, exited with status 255" })
    void reasonNamesTheStatusOrTheSignal(int exitValue, String reason) {
        assertThat(ExitStatus.describe(exitValue)).isEqualTo(reason);
    }

    @org.junit.jupiter.api.Test
    void aCleanExitIsWhatATaskCountsAsSuccess() {
        assertThat(ExitStatus.describe(0)).isEqualTo(io.drover.rep.executor.RunOnce.SUCCEEDED);
    }
}
