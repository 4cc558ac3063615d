package io.drover.rep.executor.container;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the few host tools the sandbox needs ({@code mount}, {@code umount}, {@code ip}) to their end. */
final class Commands {

    private Commands() {
    }

    /** Runs the command with {@code input} on its stdin; fails with its output when it exits non-zero. */
    static String run(List<String> command, String input) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (var stdin = process.getOutputStream()) {
            if (input != null) {
                stdin.write(input.getBytes(StandardCharsets.UTF_8));
            }
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", command.subList(0, Math.min(3, command.size()))) + " failed: "
                    + output);
        }
        return output;
    }

    static String run(String... command) throws IOException {
        return run(new ArrayList<>(List.of(command)), null);
    }

    /** Like {@link #run(String...)}, for undoing things that may already be undone: failures are ignored. */
    static void quietly(String... command) {
        try {
            run(command);
        } catch (IOException e) {
            // already gone
        }
    }
}
