package io.drover.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the JDK's {@code jcmd} against another JVM of this machine (a service of a cluster of separate JVMs). */
final class Jcmd {

    private Jcmd() {
    }

    static String run(long pid, String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>();
        line.add(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString());
        line.add(String.valueOf(pid));
        line.addAll(List.of(command));
        Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IOException("jcmd " + String.join(" ", command) + " failed: " + output);
        }
        return output;
    }
}
