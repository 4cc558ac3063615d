package io.drover.cli.output;

import java.time.Duration;
import picocli.CommandLine.Option;

/** The {@code --watch} options a command mixes in (picocli {@code @Mixin}): one frame, or frames until Ctrl-C. */
public final class WatchOptions {

    @Option(names = { "-w", "--watch" }, description = "refresh in place until Ctrl-C")
    boolean watch;

    @Option(names = "--interval", defaultValue = "2", paramLabel = "SECONDS", description = "refresh interval (default 2)")
    int interval;

    @Option(names = "--frames", hidden = true, defaultValue = "0", description = "stop watching after this many frames")
    int frames;

    /** Draws {@code frame} once, or every interval while watching; the command's exit code is then 0. */
    public int run(Output output, Runnable frame) {
        if (watch) {
            Watch.run(output, Duration.ofSeconds(Math.max(1, interval)), frames, frame);
        } else {
            frame.run();
        }
        return 0;
    }
}
