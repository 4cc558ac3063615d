package io.drover.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The CPU another JVM's threads have used so far, in seconds, by group of thread name (from
 * {@code /proc/PID/task/TID/stat}, whose name the kernel cuts to 15 characters): its request threads (Reactor Netty's
 * event loops, {@code reactor-http-*}), the JIT's compilers, the garbage collector's threads, and the rest. Threads
 * that ended between two readings are missing from the later one.
 */
final class ThreadGroupCpu {

    static final String REQUESTS = "request threads";
    static final String JIT = "JIT";
    static final String GC = "GC";
    static final String OTHER = "other";

    private ThreadGroupCpu() {
    }

    static Map<String, Double> of(long pid) {
        Map<String, Double> seconds = new TreeMap<>(Map.of(REQUESTS, 0.0, JIT, 0.0, GC, 0.0, OTHER, 0.0));
        try (Stream<Path> tasks = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
            tasks.forEach(task -> {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    seconds.merge(group(name), (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0, Double::sum);
                } catch (IOException | RuntimeException gone) {
                    // the thread ended while we looked
                }
            });
        } catch (IOException e) {
            return Map.of();
        }
        return seconds;
    }

    /** {@code after} minus {@code before}, group by group. */
    static Map<String, Double> between(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> spent = new TreeMap<>();
        after.forEach((group, s) -> spent.put(group, s - before.getOrDefault(group, 0.0)));
        return spent;
    }

    private static String group(String name) {
        if (name.startsWith("reactor-http")) {
            return REQUESTS;
        }
        if (name.contains("CompilerThre")) {
            return JIT;
        }
        if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
            return GC;
        }
        return OTHER;
    }
}
