package io.drover.bench;

import io.drover.cluster.console.LocalLogging;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the benchmark prints while it runs: one line per step, with the minutes since the JVM started, and on a long
 * step a progress line every 10 s (how many of how many, the rate, the time left at that rate). The services' logs go
 * to a file ({@link #logsToFile}), as {@code ./drover-local}'s do; every console line goes there too, so the log tells
 * the whole story. Progress lines are written by a thread of the benchmark's own ({@code bench-progress}), which the
 * CPU account leaves out of Drover's share.
 */
final class Console {

    static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);
    private static final Logger log = LoggerFactory.getLogger("drover.bench");
    private static final PrintStream OUT = System.out;
    private static final ScheduledExecutorService TICKS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, BenchThreads.PREFIX + "progress");
        t.setDaemon(true);
        return t;
    });

    private Console() {
    }

    /**
     * Sends every log line of this JVM (the services, the broker, PostgreSQL's output) to {@code dir/drover.log}
     * instead of the terminal, at WARN (the cluster's own start-up at INFO, as before); returns the file. Call first.
     */
    static Path logsToFile(Path dir) {
        Path file = LocalLogging.toFile(dir, false);
        level(org.slf4j.Logger.ROOT_LOGGER_NAME, "WARN");
        level("io.drover.cluster", "INFO");
        level("drover.bench", "INFO");
        return file;
    }

    private static void level(String logger, String level) {
        if (LoggerFactory.getLogger(logger) instanceof ch.qos.logback.classic.Logger l) {
            l.setLevel(ch.qos.logback.classic.Level.toLevel(level));
        }
    }

    /** A step begins or ends. */
    static void step(String line) {
        print(String.format(Locale.ROOT, "bench [%s] %s", clock(), line));
    }

    /** A line under the current step (indented). */
    static void detail(String line) {
        print(String.format(Locale.ROOT, "bench [%s]   %s", clock(), line));
    }

    /**
     * Starts printing a progress line every 10 s for a step that counts up to {@code total} {@code unit}s (for example
     * "RUNNING"); {@link Progress#update} gives it the latest count (the step's own polls: no extra query), and
     * {@link Progress#close} stops it.
     */
    static Progress progress(String what, long total, String unit) {
        return new Progress(what, total, unit, false);
    }

    /** The same for a step whose count goes down to 0 (rows left to remove): the line says how many went. */
    static Progress countdown(String what, long total, String unit) {
        return new Progress(what, total, unit, true);
    }

    /** A scenario's figure, as it is taken. */
    static Figure taken(Figure figure) {
        detail("%s: %s (%s)".formatted(figure.scenario(), figure.figure(), figure.pass() ? "passes"
                : "target " + figure.target() + " missed"));
        return figure;
    }

    static List<Figure> taken(List<Figure> figures) {
        figures.forEach(Console::taken);
        return figures;
    }

    /** Minutes and seconds since the JVM started. */
    private static String clock() {
        long s = ManagementFactory.getRuntimeMXBean().getUptime() / 1000;
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    private static synchronized void print(String line) {
        OUT.println(line);
        OUT.flush();
        log.info("{}", line);
    }

    /** How long {@code seconds} is, for people: "45 s", "4 min 10 s". */
    static String duration(double seconds) {
        if (!Double.isFinite(seconds) || seconds < 0) {
            return "unknown";
        }
        long s = Math.round(seconds);
        return s < 60 ? s + " s" : String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
    }

    /** The progress of one step: its latest count and when it began. */
    static final class Progress implements AutoCloseable {

        private final String what;
        private final long total;
        private final String unit;
        private final boolean down;
        private final long startNanos = System.nanoTime();
        private final AtomicLong done = new AtomicLong();
        private final java.util.concurrent.ScheduledFuture<?> ticking;

        private Progress(String what, long total, String unit, boolean down) {
            this.what = what;
            this.total = total;
            this.unit = unit;
            this.down = down;
            long every = PROGRESS_EVERY.toMillis();
            this.ticking = TICKS.scheduleAtFixedRate(this::print, every, every, TimeUnit.MILLISECONDS);
        }

        /** The count now (what is left, for a countdown). */
        void update(long count) {
            done.set(down ? total - count : count);
        }

        /** One more. */
        void increment() {
            done.incrementAndGet();
        }

        /** The line it prints: "P1: 412,345 of 1,000,000 RUNNING, 2,310/s, ETA 4 min 10 s". */
        String line() {
            long n = done.get();
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            double rate = n / Math.max(0.001, seconds);
            String eta = n >= total ? "done" : rate > 0 ? "ETA " + duration((total - n) / rate) : "ETA unknown";
            return String.format(Locale.ROOT, "%s: %,d of %,d %s after %s, %,.0f/s, %s", what, n, total, unit,
                    duration(seconds), rate, eta);
        }

        private void print() {
            detail(line());
        }

        @Override
        public void close() {
            ticking.cancel(false);
        }
    }
}
