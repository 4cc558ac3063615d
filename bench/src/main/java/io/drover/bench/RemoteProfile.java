package io.drover.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A JDK Flight Recorder profile of another JVM (the receptor's, in a cluster of separate JVMs), through jcmd. */
final class RemoteProfile {

    private final long pid;

    private RemoteProfile(long pid) {
        this.pid = pid;
    }

    /** What {@link Profile#prime()} does for this JVM, for another one: before its warm-up, not at P4. */
    static void prime(long pid) throws IOException, InterruptedException {
        Jcmd.run(pid, "JFR.start", "name=drover-prime");
        Jcmd.run(pid, "JFR.stop", "name=drover-prime");
    }

    static RemoteProfile start(long pid) throws IOException, InterruptedException {
        Jcmd.run(pid, "JFR.start", "name=drover-bench", "settings=profile");
        return new RemoteProfile(pid);
    }

    String stopAndSummarize(Path file) throws IOException, InterruptedException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Jcmd.run(pid, "JFR.stop", "name=drover-bench", "filename=" + file.toAbsolutePath());
        return Profile.summarize(file);
    }
}
