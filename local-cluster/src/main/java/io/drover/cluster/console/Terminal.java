package io.drover.cluster.console;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The few lines {@code ./drover-local} prints: start-up steps with the seconds since start, the banner, then one
 * time-stamped line per cluster event. Each line also goes to the log file, so the log tells the whole story.
 */
public final class Terminal {

    private static final Logger log = LoggerFactory.getLogger("drover.local");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final PrintStream out;
    private final Clock clock;
    /** Since the JVM started: what the user waited for. */
    private final long startedNanos = System.nanoTime()
            - ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000;

    public Terminal(PrintStream out, Clock clock) {
        this.out = out;
        this.clock = clock;
    }

    /** A start-up line. */
    public void say(String message) {
        print("drover: " + message);
    }

    /** A start-up step done, with the time since start. */
    public void step(String message) {
        print(String.format("drover: %s (%.1f s)", message, elapsed().toMillis() / 1000.0));
    }

    /** One cluster event, time-stamped. */
    public void event(String line) {
        print(LocalTime.now(clock).format(TIME) + "  " + line);
    }

    /** Lines printed as they are (the banner), and what of them goes to the log. */
    public void block(String shown, String logged) {
        out.print(shown);
        out.flush();
        log.info("{}", logged.strip());
    }

    public Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
    }

    private void print(String line) {
        out.println(line);
        out.flush();
        log.info("{}", line);
    }
}
