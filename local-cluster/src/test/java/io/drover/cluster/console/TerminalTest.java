package io.drover.cluster.console;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The banner shows the receptor's password on the terminal; the log file, which every line also goes to, never. */
class TerminalTest {

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger("drover.local");

    @BeforeEach
    void listen() {
        log.start();
        logger.addAppender(log);
    }

    @AfterEach
    void stopListening() {
        logger.detachAppender(log);
    }

    @Test
    void theBannerShowsThePasswordButTheLogNeverHasIt() {
        ByteArrayOutputStream screen = new ByteArrayOutputStream();
        Terminal terminal = new Terminal(new PrintStream(screen, true, StandardCharsets.UTF_8), Clock.systemUTC());
        String password = "9f2c4e1a7b3d5e6f8a9b0c1d";

        Banner.show(terminal, 12, "http://127.0.0.1:8080", "http://127.0.0.1:8081", "drover", password,
                "127.0.0.1:9092", ".drover/local/cluster.env");

        assertThat(screen.toString(StandardCharsets.UTF_8)).contains(password)
                .contains("router    http://127.0.0.1:8081");
        assertThat(log.list).isNotEmpty().allSatisfy(line -> assertThat(line.getFormattedMessage())
                .doesNotContain(password));
    }
}
