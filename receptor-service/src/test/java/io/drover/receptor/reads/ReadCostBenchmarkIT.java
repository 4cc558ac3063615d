package io.drover.receptor.reads;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.lrp.Action;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.RunAction;
import io.drover.receptor.ReceptorTest;
import io.drover.receptor.TestApi;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The receptor's CPU per request, endpoint by endpoint (the reads, an annotation PUT, P1's desire POST and a DELETE):
 * the CPU clocks of its Tomcat threads over a few thousand real HTTP requests, divided by the requests (what P4 of the
 * benchmark measures, without the rest of the cluster), the least of three rounds after a warm-up. Opt-in:
 * {@code -Ddrover.benchmark=true}; {@code -Ddrover.benchmark.jfr=path} also records a CPU profile of the last round.
 * Prints the figures.
 */
@ReceptorTest
@EnabledIfSystemProperty(named = "drover.benchmark", matches = "true")
class ReadCostBenchmarkIT {

    private static final int LRPS = 100;
    private static final int REQUESTS = 2_000;
    /** A warm-up round, then the measured ones. */
    private static final int ROUNDS = 4;

    @Autowired
    DesiredLrpLifecycle desired;
    @LocalServerPort
    int port;

    @Test
    void cpuPerRequestOfEachKind() throws Exception {
        List<String> guids = new ArrayList<>();
        for (int i = 0; i < LRPS; i++) {
            String guid = TestApi.guid("cost");
            desired.desire(new DesiredLrpDefinition(guid, "cost", "preloaded:host", 10,
                    new Action(new RunAction("sleep", List.of("100000"), null, null, null)), null, null, 0, null,
                    List.of(8080), 64, 64, 0, 0, null, null, null, null, null), Actor.service("benchmark"));
            guids.add(guid);
        }
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .executor(Executors.newFixedThreadPool(8)).build();
        String etag = http.send(get("/v1/desired_lrps/" + guids.get(0), null), HttpResponse.BodyHandlers.discarding())
                .headers().firstValue("ETag").orElseThrow();
        List<Function<String, HttpRequest>> kinds = List.of(g -> get("/v1/desired_lrps/" + g, null),
                g -> get("/v1/actual_lrps/" + g, null), g -> get("/v1/actual_lrps/" + g + "/index/3", null),
                g -> get("/v1/desired_lrps/" + guids.get(0), etag),
                g -> HttpRequest.newBuilder(uri("/v1/desired_lrps/" + g)).header("Authorization", TestApi.AUTHORIZATION)
                        .header("Content-Type", "application/json")
                        .PUT(HttpRequest.BodyPublishers.ofString("{\"annotation\": \"a" + System.nanoTime() + "\"}"))
                        .build());
        List<String> names = List.of("GET desired", "GET actual by guid", "GET actual by index",
                "GET desired 304", "PUT annotation", "POST desire", "DELETE desired");
        List<List<Double>> measured = names.stream().<List<Double>>map(n -> new ArrayList<>()).toList();
        for (int round = 0; round < ROUNDS; round++) {
            // P1's desire: a fresh guid each, 10 instances, the benchmark's body; then each of them deleted
            String prefix = "desire-" + round + "-";
            List<Function<Integer, HttpRequest>> writes = List.of(
                    i -> HttpRequest.newBuilder(uri("/v1/desired_lrps")).header("Authorization", TestApi.AUTHORIZATION)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(desireBody(prefix + i))).build(),
                    i -> HttpRequest.newBuilder(uri("/v1/desired_lrps/" + prefix + i))
                            .header("Authorization", TestApi.AUTHORIZATION).DELETE().build());
            boolean profiled = round == ROUNDS - 1 && System.getProperty("drover.benchmark.jfr") != null;
            Recording jfr = profiled ? new Recording() : null;
            if (jfr != null) {
                jfr.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10)).withStackTrace();
                jfr.start();
            }
            for (int k = 0; k < names.size(); k++) {
                Function<String, HttpRequest> read = k < kinds.size() ? kinds.get(k) : null;
                Function<Integer, HttpRequest> request = read != null
                        ? i -> read.apply(guids.get(ThreadLocalRandom.current().nextInt(guids.size())))
                        : writes.get(k - kinds.size());
                long from = System.currentTimeMillis();
                double micros = measure(http, request, read == null);
                if (round > 0) {
                    measured.get(k).add(micros);
                }
                if (jfr != null) {
                    // so that the profile's samples can be told apart by kind of request
                    System.out.printf("read-cost-benchmark-window %s %d %d%n", names.get(k).replace(' ', '_'), from,
                            System.currentTimeMillis());
                }
            }
            if (jfr != null) {
                jfr.stop();
                jfr.dump(Path.of(System.getProperty("drover.benchmark.jfr")));
            }
        }
        // the least of the measured rounds: on a shared machine, other work only ever adds to a thread's CPU time
        for (int k = 0; k < names.size(); k++) {
            System.out.printf("read-cost-benchmark %-22s %7.1f us CPU per request (rounds: %s)%n", names.get(k),
                    measured.get(k).stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                    measured.get(k).stream().map(m -> String.format("%.0f", m)).toList());
        }
    }

    /** The benchmark's P1 desire body ({@code ReceptorClient.desiredLrp} in bench/). */
    private static String desireBody(String guid) {
        return """
                {"process_guid": "%s", "domain": "bench", "rootfs": "preloaded:host", "instances": 10,
                 "memory_mb": 64, "disk_mb": 64, "ports": [8080],
                 "action": {"run": {"path": "sleep", "args": ["100000"]}}}""".formatted(guid);
    }

    /** Sends request(0..REQUESTS-1) from 4 clients; a write must succeed (2xx), a read may also answer 409. */
    private double measure(HttpClient http, Function<Integer, HttpRequest> request, boolean write)
            throws Exception {
        AtomicInteger failures = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(4);
        long before = tomcatCpuNanos();
        for (int i = 0; i < REQUESTS; i++) {
            int n = i;
            clients.submit(() -> {
                try {
                    int status = http.send(request.apply(n), HttpResponse.BodyHandlers.discarding()).statusCode();
                    if (status >= 400 && (write || status != 409)) {
                        failures.incrementAndGet();
                    }
                } catch (Exception e) {
                    failures.incrementAndGet();
                }
            });
        }
        clients.shutdown();
        assertThat(clients.awaitTermination(10, TimeUnit.MINUTES)).isTrue();
        assertThat(failures).hasValue(0);
        return (tomcatCpuNanos() - before) / 1000.0 / REQUESTS;
    }

    private HttpRequest get(String path, String ifNoneMatch) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).header("Authorization", TestApi.AUTHORIZATION);
        if (ifNoneMatch != null) {
            b.header("If-None-Match", ifNoneMatch);
        }
        return b.build();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private static long tomcatCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long nanos = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("http-nio")) {
                nanos += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return nanos;
    }
}
