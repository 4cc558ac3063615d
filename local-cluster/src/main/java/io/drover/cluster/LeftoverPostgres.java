package io.drover.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The PostgreSQL server a killed run of this cluster left on its data directory (SIGKILL gives the JVM no chance to
 * stop it): found by its {@code postmaster.pid}, stopped with a fast shutdown (SIGINT), killed if it will not go. Only
 * called with the data directory's lock held, so no live cluster owns that server.
 */
final class LeftoverPostgres {

    private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(30);

    private LeftoverPostgres() {
    }

    /** Stops the server a killed run left on {@code dataDir}; says what it did, or empty when there was none. */
    static Optional<String> stop(Path dataDir) {
        Optional<ProcessHandle> server = running(dataDir);
        if (server.isEmpty()) {
            return Optional.empty();
        }
        long pid = server.get().pid();
        signal("-INT", pid);
        if (!waitForExit(server.get(), SHUTDOWN_WAIT)) {
            server.get().destroyForcibly();
            waitForExit(server.get(), SHUTDOWN_WAIT);
        }
        return Optional.of("stopped the PostgreSQL server (pid " + pid + ") that a killed run left on " + dataDir);
    }

    /** The live postmaster named by the data directory's pid file; a stale pid file PostgreSQL handles itself. */
    static Optional<ProcessHandle> running(Path dataDir) {
        Path pidFile = dataDir.resolve("postmaster.pid");
        if (!Files.isRegularFile(pidFile)) {
            return Optional.empty();
        }
        try {
            List<String> lines = Files.readAllLines(pidFile);
            if (lines.isEmpty() || !lines.get(0).trim().matches("\\d+")) {
                return Optional.empty();
            }
            return ProcessHandle.of(Long.parseLong(lines.get(0).trim())).filter(ProcessHandle::isAlive)
                    .filter(p -> p.info().command().map(c -> c.endsWith("postgres")).orElse(false));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + pidFile, e);
        }
    }

    private static void signal(String signal, long pid) {
        try {
            new ProcessBuilder("kill", signal, Long.toString(pid)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot signal PostgreSQL (pid " + pid + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean waitForExit(ProcessHandle process, Duration timeout) {
        try {
            process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            return !process.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
