package io.drover.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * P5: heap in use after a full GC. The local cluster runs every service, the Kafka broker and the simulated cells in
 * one JVM, so this is the sum of all of them: an upper bound for each service's own heap.
 */
final class HeapUsage {

    Figure run(int services) {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        long usedMb = memory.getHeapMemoryUsage().getUsed() / (1024 * 1024);
        long budget = 512L * services;
        return new Figure("P5 heap at the end (one JVM: %d services + broker + cells)".formatted(services),
                "%,d MB used after GC".formatted(usedMb), "<= 512 MB per service (%,d MB for all)".formatted(budget),
                usedMb <= budget, "a per-service split needs one JVM per service; this total bounds each of them");
    }
}
