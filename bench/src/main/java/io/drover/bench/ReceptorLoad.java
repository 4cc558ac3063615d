package io.drover.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * P4: an open-loop load on the receptor (requests are sent on schedule whatever the latency, so slowness shows up as
 * latency rather than as a lower rate): 80 % reads of desired and actual LRPs, 20 % annotation updates. Latency counts
 * from the moment a request was due, so time spent waiting for a free client thread is not hidden.
 */
final class ReceptorLoad {

    private final ReceptorClient client;

    ReceptorLoad(ReceptorClient client) {
        this.client = client;
    }

    /**
     * Runs the load for {@code warmUp} unmeasured (the JIT has not compiled the read paths yet: P1 only wrote), then
     * for {@code duration} measured.
     */
    Figure run(List<String> guids, int perSecond, Duration warmUp, Duration duration, Path recording)
            throws InterruptedException, IOException {
        load(guids, perSecond, warmUp);
        CpuAccount cpuBefore = CpuAccount.now();
        Profile profile = Profile.start();
        Results results = load(guids, perSecond, duration);
        String cpu = CpuAccount.now().since(cpuBefore);
        String samples;
        try (profile) {
            samples = profile.stopAndSummarize(recording);
        }
        long[] sorted = results.sortedMicros();
        int requests = sorted.length;
        double p50 = sorted[requests / 2] / 1000.0;
        double p99 = sorted[(int) (requests * 0.99)] / 1000.0;
        double max = sorted[requests - 1] / 1000.0;
        int errors = results.errors().get();
        return new Figure("P4 receptor at %d req/s (80 %% reads) for %d s".formatted(perSecond, duration.toSeconds()),
                "p50 %.1f ms, p99 %.1f ms, max %.0f ms, %d errors".formatted(p50, p99, max, errors),
                "p99 <= 50 ms, no errors", p99 <= 50 && errors == 0,
                "%d requests after %d s of warm-up, %d answered 409 (concurrent updates); %s; %s".formatted(requests,
                        warmUp.toSeconds(), results.conflicts().get(), cpu, samples));
    }

    private Results load(List<String> guids, int perSecond, Duration duration) throws InterruptedException {
        int requests = (int) (perSecond * duration.toSeconds());
        Results results = new Results(new AtomicLongArray(requests), new AtomicInteger(), new AtomicInteger());
        ExecutorService pool = Executors.newFixedThreadPool(64);
        long intervalNanos = 1_000_000_000L / perSecond;
        long start = System.nanoTime();
        for (int i = 0; i < requests; i++) {
            long due = start + i * intervalNanos;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            int slot = i;
            pool.submit(() -> {
                String guid = guids.get(ThreadLocalRandom.current().nextInt(guids.size()));
                int dice = ThreadLocalRandom.current().nextInt(10);
                int status = dice < 4 ? client.send("GET", "/v1/desired_lrps/" + guid, null).statusCode()
                        : dice < 8 ? client.send("GET", "/v1/actual_lrps/" + guid, null).statusCode()
                        : client.send("PUT", "/v1/desired_lrps/" + guid,
                                "{\"annotation\": \"load-" + slot + "\"}").statusCode();
                results.latencyMicros().set(slot, (System.nanoTime() - due) / 1000);
                if (status == 409) {
                    results.conflicts().incrementAndGet();
                } else if (status >= 400) {
                    results.errors().incrementAndGet();
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(2, TimeUnit.MINUTES);
        return results;
    }

    private record Results(AtomicLongArray latencyMicros, AtomicInteger errors, AtomicInteger conflicts) {

        long[] sortedMicros() {
            long[] sorted = new long[latencyMicros.length()];
            for (int i = 0; i < sorted.length; i++) {
                sorted[i] = latencyMicros.get(i);
            }
            Arrays.sort(sorted);
            return sorted;
        }
    }
}
