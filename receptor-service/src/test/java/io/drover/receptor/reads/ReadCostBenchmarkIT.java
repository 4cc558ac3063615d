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
 * The receptor's CPU per request, endpoint by endpoint: the CPU clocks of its Tomcat threads over a few thousand real
 * HTTP requests, divided by the requests (what P4 of the benchmark measures, without the rest of the cluster). Opt-in:
 * {@code -Ddrover.benchmark=true}; {@code -Ddrover.benchmark.jfr=path} also records a CPU profile. Prints the figures.
 */
@ReceptorTest
@EnabledIfSystemProperty(named = "drover.benchmark", matches = "true")
class ReadCostBenchmarkIT {

    private static final int LRPS = 100;
    private static final int REQUESTS = 2_000;

    @Autowired
    DesiredLrpLifecycle desired;
    @LocalServerPort
    int port;

    @Test
    void cpuPerRequestOfEachRead() throws Exception {
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
                "GET desired 304", "PUT annotation");
        for (int round = 0; round < 2; round++) {
            Recording jfr = round == 1 && System.getProperty("drover.benchmark.jfr") != null ? new Recording() : null;
            if (jfr != null) {
                jfr.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10)).withStackTrace();
                jfr.start();
            }
            for (int k = 0; k < kinds.size(); k++) {
                double micros = measure(http, guids, kinds.get(k));
                if (round == 1) {
                    System.out.printf("read-cost-benchmark %-22s %7.1f us CPU per request%n", names.get(k), micros);
                }
            }
            if (jfr != null) {
                jfr.stop();
                jfr.dump(Path.of(System.getProperty("drover.benchmark.jfr")));
            }
        }
    }

    private double measure(HttpClient http, List<String> guids, Function<String, HttpRequest> request)
            throws Exception {
        AtomicInteger failures = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(4);
        long before = tomcatCpuNanos();
        for (int i = 0; i < REQUESTS; i++) {
            clients.submit(() -> {
                String guid = guids.get(ThreadLocalRandom.current().nextInt(guids.size()));
                try {
                    int status = http.send(request.apply(guid), HttpResponse.BodyHandlers.discarding()).statusCode();
                    if (status >= 400 && status != 409) {
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
