package io.drover.cli.output;

import java.time.Duration;

/**
 * {@code --watch}: draws a frame, waits, draws it again. On a terminal each frame replaces the previous one (cursor
 * home, clear screen); elsewhere frames follow each other, so a log of them stays readable. Ends with Ctrl-C, or
 * after {@code frames} frames when that is positive.
 */
public final class Watch {

    static final String CLEAR = "\u001b[H\u001b[2J";

    private Watch() {
    }

    public static void run(Output output, Duration interval, int frames, Runnable frame) {
        for (int n = 1; frames <= 0 || n <= frames; n++) {
            if (output.color()) {
                output.out().print(CLEAR);
            } else if (n > 1 && !output.json()) {
                output.line("");
            }
            frame.run();
            if (frames > 0 && n == frames) {
                return;
            }
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
