package io.drover.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * P4: an open-loop load on the receptor (requests are sent on schedule whatever the latency, so slowness shows up as
 * latency rather than as a lower rate): 80 % reads of desired and actual LRPs, 20 % annotation updates. Latency counts
 * from the moment a request was due, so time spent waiting for a free client thread is not hidden. Then the receptor's
 * CPU per request, which does not depend on what else the machine runs: its CPU during a reads-only and an
 * updates-only load, divided by the requests served.
 */
final class ReceptorLoad {

    /** What a load sends. */
    enum Mix {
        MIXED, READS, UPDATES
    }

    /** Where the receptor runs: how to read its CPU and how to profile it. */
    interface Receptor {
        ServiceCpu cpu();

        Recording startRecording() throws IOException, InterruptedException;
    }

    /** A running profile of the receptor. */
    interface Recording {
        String stopAndSummarize(Path file) throws IOException, InterruptedException;
    }

    private final ReceptorClient client;
    private final Receptor receptor;

    ReceptorLoad(ReceptorClient client, Receptor receptor) {
        this.client = client;
        this.receptor = receptor;
    }

    /**
     * Runs the mixed load for {@code warmUp} unmeasured (the JIT has not compiled the read paths yet: P1 only wrote),
     * then for {@code duration} measured, then reads only and updates only for half of {@code duration} each.
     */
    List<Figure> run(List<String> guids, int perSecond, Duration warmUp, Duration duration, Path recording)
            throws IOException, InterruptedException {
        load(guids, Mix.MIXED, perSecond, warmUp);
        CpuAccount cpuBefore = CpuAccount.now();
        double receptorBefore = receptor.cpu().seconds();
        Recording profile = receptor.startRecording();
        Results results = load(guids, Mix.MIXED, perSecond, duration);
        double receptorSeconds = receptor.cpu().seconds() - receptorBefore;
        String cpu = CpuAccount.now().since(cpuBefore);
        String samples = profile.stopAndSummarize(recording);
        long[] sorted = results.sortedMicros();
        int requests = sorted.length;
        double p99 = sorted[(int) (requests * 0.99)] / 1000.0;
        int errors = results.errors().get();
        Figure latency = new Figure("P4 receptor at %d req/s (80 %% reads) for %d s".formatted(perSecond,
                duration.toSeconds()), "p50 %.1f ms, p99 %.1f ms, max %.0f ms, %d errors".formatted(
                sorted[requests / 2] / 1000.0, p99, sorted[requests - 1] / 1000.0, errors), "p99 <= 50 ms, no errors",
                p99 <= 50 && errors == 0, ("%d requests after %d s of warm-up, %d answered 409 (concurrent updates); "
                + "errors by status %s; receptor CPU %.2f ms per request (%s); %s; %s").formatted(requests,
                warmUp.toSeconds(), results.conflicts().get(), results.errorStatuses(),
                1000 * receptorSeconds / requests, receptor.cpu().covers(), cpu, samples));
        Duration half = duration.dividedBy(2);
        return List.of(latency, cpuPerRequest(guids, Mix.READS, perSecond * 4 / 5, half, 0.3),
                cpuPerRequest(guids, Mix.UPDATES, perSecond / 5, half, 1.0));
    }

    private Figure cpuPerRequest(List<String> guids, Mix mix, int perSecond, Duration duration, double targetMs)
            throws InterruptedException {
        double before = receptor.cpu().seconds();
        Results results = load(guids, mix, perSecond, duration);
        double ms = 1000 * (receptor.cpu().seconds() - before) / results.requests();
        String what = mix == Mix.READS ? "GET" : "PUT";
        return new Figure("P4 receptor CPU per %s (%d %ss/s for %d s)".formatted(what, perSecond, what,
                duration.toSeconds()), "%.3f ms per request".formatted(ms), "<= %.1f ms".formatted(targetMs),
                ms <= targetMs, "%d requests, %d errors %s; CPU of %s".formatted(results.requests(),
                results.errors().get(), results.errorStatuses(), receptor.cpu().covers()));
    }

    private Results load(List<String> guids, Mix mix, int perSecond, Duration duration) throws InterruptedException {
        int requests = (int) (perSecond * duration.toSeconds());
        Results results = new Results(new AtomicLongArray(requests), new AtomicInteger(), new AtomicInteger(),
                new ConcurrentHashMap<>());
        ExecutorService pool = BenchThreads.pool(64);
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
                int status;
                try {
                    status = send(guids.get(ThreadLocalRandom.current().nextInt(guids.size())), mix, slot);
                } catch (RuntimeException e) {
                    status = 0; // no answer (timed out, connection refused)
                }
                results.latencyMicros().set(slot, (System.nanoTime() - due) / 1000);
                if (status == 409) {
                    results.conflicts().incrementAndGet();
                } else if (status >= 400 || status == 0) {
                    results.errors().incrementAndGet();
                    results.errorStatuses().merge(status, 1, Integer::sum);
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(2, TimeUnit.MINUTES);
        return results;
    }

    private int send(String guid, Mix mix, int slot) {
        int dice = switch (mix) {
            case MIXED -> ThreadLocalRandom.current().nextInt(10);
            case READS -> ThreadLocalRandom.current().nextInt(8);
            case UPDATES -> 9;
        };
        return dice < 4 ? client.send("GET", "/v1/desired_lrps/" + guid, null).statusCode()
                : dice < 8 ? client.send("GET", "/v1/actual_lrps/" + guid, null).statusCode()
                : client.send("PUT", "/v1/desired_lrps/" + guid, "{\"annotation\": \"load-" + slot + "\"}")
                        .statusCode();
    }

    /** Latencies by request, errors (and their statuses, 0 for no answer) and 409 conflicts. */
    private record Results(AtomicLongArray latencyMicros, AtomicInteger errors, AtomicInteger conflicts,
            Map<Integer, Integer> errorStatuses) {

        int requests() {
            return latencyMicros.length();
        }

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
