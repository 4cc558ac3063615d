package io.drover.verify.compose;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** The {@code docker} command line, one command at a time; a failure names the command and what it said. */
final class Docker {

    static final Duration TIMEOUT = Duration.ofSeconds(120);

    /** Runs {@code docker args...}; its standard output, or an exception when it failed or took too long. */
    String run(String... args) {
        return run(TIMEOUT, args);
    }

    String run(Duration timeout, String... args) {
        Result r = exec(timeout, args);
        if (r.exit() != 0) {
            throw new IllegalStateException("docker " + String.join(" ", args) + " exited " + r.exit() + ": "
                    + r.output().strip());
        }
        return r.output();
    }

    /** The output of a command that may fail (a file not there yet, a port not published): empty then. */
    Optional<String> attempt(String... args) {
        Result r = exec(TIMEOUT, args);
        return r.exit() == 0 ? Optional.of(r.output()) : Optional.empty();
    }

    /** Starts {@code docker args...} without waiting for it (a {@code docker stop} that drains for a while). */
    Process start(String... args) {
        try {
            return new ProcessBuilder(command(args)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record Result(int exit, String output) {
    }

    private static Result exec(Duration timeout, String... args) {
        try {
            Process p = new ProcessBuilder(command(args)).redirectErrorStream(true).start();
            // read while it runs: a large output (a service's log) would fill the pipe and stall it
            byte[][] out = new byte[1][];
            Thread reader = new Thread(() -> {
                try {
                    out[0] = p.getInputStream().readAllBytes();
                } catch (IOException e) {
                    out[0] = new byte[0];
                }
            }, "verify-docker-output");
            reader.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                reader.join(1000);
                return new Result(-1, "timed out after " + timeout.toSeconds() + " s");
            }
            reader.join();
            return new Result(p.exitValue(), new String(out[0], StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }

    private static List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of("docker"));
        command.addAll(List.of(args));
        return command;
    }
}
