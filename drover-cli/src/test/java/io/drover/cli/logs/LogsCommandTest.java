package io.drover.cli.logs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What {@code drover logs} asks the receptor for. */
class LogsCommandTest {

    @Test
    void previousAsksForTheIndexsPreviousInstance() {
        LogsCommand logs = new LogsCommand(null);
        new CommandLine(logs).parseArgs("web", "--index", "1", "--previous", "-n", "20");

        assertThat(logs.path(1)).isEqualTo("/v1/actual_lrps/web/index/1/logs?tail=20&follow=false&previous=true");
    }

    @Test
    void withoutPreviousTheCurrentInstance() {
        LogsCommand logs = new LogsCommand(null);
        new CommandLine(logs).parseArgs("web", "--index", "1");

        assertThat(logs.path(1)).isEqualTo("/v1/actual_lrps/web/index/1/logs?tail=100&follow=false");
    }
}
