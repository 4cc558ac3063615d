package io.drover.bench;

import io.drover.cluster.RunningCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * {@code ./drover-bench --cli}: how long {@code ./drover status NAME} and {@code ./drover cells} take, from the shell's
 * fork to the process's exit, against a running cluster: p50 and p90 of {@code runs} runs each, one after the other,
 * the launcher included (as people run it). A command's time is mostly the JVM's start, which the other benchmark
 * figures never see; the target is 0.3 s.
 */
final class CliStartup {

    static final long TARGET_MS = 300;

    private final Path drover;
    private final Map<String, String> env;

    CliStartup(Path drover, RunningCluster cluster, String user, String password) {
        this.drover = drover;
        this.env = Map.of("DROVER_URL", cluster.receptorUrl(), "DROVER_USER", user, "DROVER_PASSWORD", password);
    }

    List<Figure> run(String lrp, int runs) throws IOException, InterruptedException {
        exit("status", lrp); // builds the jar and its class-data archive if they are missing or stale: not measured
        return List.of(figure("CLI: ./drover status " + lrp, runs, "status", lrp),
                figure("CLI: ./drover cells", runs, "cells"));
    }

    private Figure figure(String scenario, int runs, String... args) throws IOException, InterruptedException {
        long[] ms = new long[runs];
        for (int i = 0; i < runs; i++) {
            long started = System.nanoTime();
            int exit = exit(args);
            ms[i] = Duration.ofNanos(System.nanoTime() - started).toMillis();
            if (exit != 0) {
                throw new IllegalStateException("./drover " + String.join(" ", args) + " exited " + exit);
            }
        }
        long[] sorted = ms.clone();
        Arrays.sort(sorted);
        long p50 = sorted[(runs - 1) / 2];
        long p90 = sorted[(int) Math.ceil(runs * 0.9) - 1];
        return new Figure(scenario, "p50 " + p50 + " ms, p90 " + p90 + " ms (" + runs + " runs)",
                "<= " + TARGET_MS + " ms", p90 <= TARGET_MS, "wall time of each run, fork to exit: "
                        + Arrays.toString(ms) + " ms; machine load at the end "
                        + String.format("%.2f", java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                                .getSystemLoadAverage()));
    }

    private int exit(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(drover.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().putAll(env);
        return builder.start().waitFor();
    }
}
