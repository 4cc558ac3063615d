package io.drover.rep.executor.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Clock;

/**
 * Where an {@code emit_progress} action's messages go: the instance's log, as a line of its stdout marked as Drover's
 * ({@code [drover] ...}), so whoever reads the instance's output sees the steps between its lines. The one seam to
 * change when the instance log gets a structured journal.
 */
final class ProgressLines {

    private final Clock clock;

    ProgressLines(Clock clock) {
        this.clock = clock;
    }

    void emit(InstanceDir dir, String message) {
        if (message == null || message.isEmpty()) {
            return;
        }
        String line = clock.instant() + " [drover] " + message.replace('\n', ' ') + "\n";
        try {
            Files.writeString(dir.stdout(), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            // a lost progress line is no reason to fail the action
        }
    }
}
