package io.drover.bench;

import com.sun.net.httpserver.HttpServer;
import io.drover.cluster.LocalClusterSettings;
import io.drover.cluster.ProcessCluster;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * P8 (SPEC 11, 16), {@code ./drover-bench --router [--quick]}: the router in a JVM of its own (the cluster's services
 * each in theirs), 1,000 routes (100 with --quick) of 10 instances each on simulated cells. A simulated cell hands out
 * host ports from one small range, the same for every cell, and {@link #BACKENDS} real HTTP servers in this JVM listen
 * on exactly those ports: 10,000 instances in the table, 16 processes' worth of sockets behind them.
 *
 * <p>Open-loop load at a fixed rate (each request is sent when its time comes, whatever the others are doing, and its
 * latency counts from that time): added latency against calling the backends directly, the router's CPU per request
 * (its whole JVM, from /proc, in user mode and in the kernel; in a phase with no recording, the JFR profile in a phase
 * of its own after it), the highest rate whose p99 stays within 10 ms, and how soon a route change is visible.
 */
final class RouterBench {

    static final int BACKENDS = 16;
    private static final Duration PHASE = Duration.ofSeconds(20);
    private static final Duration PROFILED = Duration.ofSeconds(10);
    private static final int[] RATES = { 1_000, 2_000, 3_000, 4_000, 6_000, 8_000 };

    private final int routes;
    private final int instances;

    RouterBench(int routes, int instances) {
        this.routes = routes;
        this.instances = instances;
    }

    List<Figure> run() throws Exception {
        int firstPort = freeRun(BACKENDS);
        List<HttpServer> backends = startBackends(firstPort);
        int cells = routes * instances / 10;
        Map<String, String> properties = new HashMap<>(BenchSettings.clusterProperties(cells));
        properties.put("drover.rep.address", "127.0.0.1");
        properties.put("drover.rep.simulated.first-host-port", String.valueOf(firstPort));
        properties.put("drover.rep.simulated.last-host-port", String.valueOf(firstPort + BACKENDS - 1));
        properties.put("drover.rep.capacity.containers", String.valueOf(BACKENDS));
        Path dataDir = Files.createTempDirectory("drover-bench-router");
        LocalClusterSettings settings = new LocalClusterSettings(dataDir, true, 0, 0, cells, "bench", "bench-password",
                properties);
        LoopResources loops = LoopResources.create("bench-load", 2, true);
        ConnectionProvider pool = ConnectionProvider.builder("bench-load").maxConnections(1_000)
                .pendingAcquireMaxCount(-1).build();
        reactor.netty.http.client.HttpClient http = reactor.netty.http.client.HttpClient.create(pool).runOn(loops)
                .responseTimeout(Duration.ofSeconds(10));
        try (ProcessCluster cluster = ProcessCluster.start(settings);
             Database db = new Database(cluster.jdbcUrl(), "postgres", "postgres")) {
            ProcessCluster.Service router = cluster.services().stream()
                    .filter(s -> s.name().equals("router-service")).findFirst().orElseThrow();
            ReceptorClient client = new ReceptorClient(cluster.receptorUrl(), "bench", "bench-password", 32);
            BenchSettings.awaitCells(db, cells, Duration.ofMinutes(3));
            desire(client, routes, instances);
            awaitRouted(db, router, (long) routes * instances, Duration.ofMinutes(5));
            String routerUrl = cluster.routerUrl();
            IntFunction<Target> routed = i -> new Target(routerUrl + "/", "app-" + i + ".bench.test");
            IntFunction<Target> direct = i -> new Target("http://127.0.0.1:" + (firstPort + i % BACKENDS) + "/", null);
            Load load = new Load(http);
            long pid = router.process().pid();
            RemoteProfile.prime(pid);
            load.run(1_000, Duration.ofSeconds(5), direct, routes);
            Phase baseline = load.run(1_000, PHASE, direct, routes);
            // Right before the measured phase: after 25 s of the direct calls alone, the router's JIT was back at work
            // in it (a tenth of its CPU, 2026-12-03), though the warm-up had ended with the JIT at under 2 %.
            String warm = warmUp(load, routed, pid);
            ServiceCpu cpu = ServiceCpu.process(pid);
            double cpuBefore = cpu.seconds();
            double[] modesBefore = userAndKernel(pid);
            Map<String, Double> groupsBefore = ThreadGroupCpu.of(pid);
            Phase through = load.run(1_000, PHASE, routed, routes);
            double coreMsPerRequest = (cpu.seconds() - cpuBefore) * 1000 / through.sent();
            double[] modes = userAndKernel(pid);
            Map<String, Double> groups = ThreadGroupCpu.between(groupsBefore, ThreadGroupCpu.of(pid));
            String split = String.join(", ", groups.entrySet().stream().map(e -> String.format("%s %.3f", e.getKey(),
                    e.getValue() * 1000 / through.sent())).toList()) + String.format("; in user mode %.3f, in the "
                    + "kernel %.3f", (modes[0] - modesBefore[0]) * 1000 / through.sent(),
                    (modes[1] - modesBefore[1]) * 1000 / through.sent());
            // The profile in a phase of its own: a recording's start and its events cost the JVM CPU (and compiled
            // code: JFR's own events), which is no part of the router's cost per request.
            RemoteProfile profile = RemoteProfile.start(pid);
            load.run(1_000, PROFILED, routed, routes);
            String profiled = profile.stopAndSummarize(Path.of("bench", "results", "p8-" + java.time.Instant.now()
                    .toString().replace(':', '-') + ".jfr"));
            List<Phase> steps = new ArrayList<>();
            for (int rate : RATES) {
                Phase step = load.run(rate, Duration.ofSeconds(10), routed, routes);
                steps.add(step);
                if (step.p99Millis() > 10 || step.errors() > step.sent() / 1000) {
                    break;
                }
            }
            Changes changes = routeChanges(client, load, routerUrl, Math.min(50, routes));
            double lagP99 = lagP99Millis(router);
            return figures(baseline, through, coreMsPerRequest, steps, changes, lagP99, cpu.covers() + "; core-ms per "
                    + "request by thread group: " + split + "; " + warm + "; " + profiled);
        } finally {
            backends.forEach(s -> s.stop(0));
            loops.disposeLater().block(Duration.ofSeconds(5));
            pool.disposeLater().block(Duration.ofSeconds(5));
            deleteQuietly(dataDir);
        }
    }

    private List<Figure> figures(Phase baseline, Phase through, double coreMsPerRequest, List<Phase> steps,
            Changes changes, double lagP99, String covers) {
        double addedP50 = through.p50Millis() - baseline.p50Millis();
        double addedP99 = through.p99Millis() - baseline.p99Millis();
        int best = steps.stream().filter(s -> s.p99Millis() <= 10 && s.errors() <= s.sent() / 1000)
                .mapToInt(Phase::rate).max().orElse(0);
        String ladder = String.join(", ", steps.stream().map(s -> String.format("%d/s p99 %.1f ms%s", s.rate(),
                s.p99Millis(), s.errors() > 0 ? " (" + s.errors() + " errors)" : "")).toList());
        List<Figure> figures = new ArrayList<>();
        figures.add(new Figure("P8 router: added latency at 1,000 req/s", String.format(
                "+%.2f ms p50, +%.2f ms p99", addedP50, addedP99), "added p99 <= 2 ms", addedP99 <= 2 && through
                .errors() == 0, String.format("%d routes x %d instances on %d real servers; direct p50 %.2f / p99 "
                + "%.2f ms, through the router p50 %.2f / p99 %.2f ms (max %.1f ms), %d requests, %d errors",
                routes, instances, BACKENDS, baseline.p50Millis(), baseline.p99Millis(), through.p50Millis(),
                through.p99Millis(), through.maxMillis(), through.sent(), through.errors())));
        figures.add(new Figure("P8 router: CPU per request", String.format("%.3f core-ms", coreMsPerRequest),
                "<= 0.15 core-ms", coreMsPerRequest <= 0.15, "at 1,000 req/s for " + PHASE.toSeconds()
                + " s, " + covers));
        figures.add(new Figure("P8 router: highest rate with p99 <= 10 ms", best + " req/s", "reported", best > 0,
                ladder));
        figures.add(new Figure("P8 router: route change visible", String.format("p50 %.0f ms, p99 %.0f ms",
                changes.p50(), changes.p99()), "p99 <= 500 ms", changes.p99() <= 500,
                String.format("%d hostnames added (PUT to 200: p99 %.0f ms) and %d instances stopped (PUT to 502: p99 "
                        + "%.0f ms), each polled every 5 ms; the table's own lag from row written to table published, "
                        + "p99 <= %.0f ms (histogram bucket) over every change of the run, the desire of all "
                        + "instances at once included", changes.added(),
                        changes.addedP99(), changes.stopped(), changes.stoppedP99(), lagP99)));
        return figures;
    }

    /**
     * Load through the router until its JIT is done with what a request runs: 15 s phases at 1,000 req/s until the
     * compiler threads used less than 2 % of the JVM's CPU in one (at most 8 phases).
     */
    private String warmUp(Load load, IntFunction<Target> routed, long pid) throws InterruptedException {
        int phases = 0;
        double jitShare = 1;
        while (phases < 8 && jitShare >= 0.02) {
            Map<String, Double> before = ThreadGroupCpu.of(pid);
            load.run(1_000, Duration.ofSeconds(15), routed, routes);
            Map<String, Double> spent = ThreadGroupCpu.between(before, ThreadGroupCpu.of(pid));
            double all = spent.values().stream().mapToDouble(Double::doubleValue).sum();
            jitShare = spent.getOrDefault(ThreadGroupCpu.JIT, 0.0) / Math.max(all, 1e-9);
            phases++;
        }
        return String.format("warm-up %d x 15 s until the JIT took %.1f %% of the JVM's CPU", phases, jitShare * 100);
    }

    /** A process's CPU so far in seconds, {user, kernel}, from {@code /proc} (USER_HZ = 100); NaN when gone. */
    private static double[] userAndKernel(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return new double[] { Long.parseLong(f[11]) / 100.0, Long.parseLong(f[12]) / 100.0 };
        } catch (IOException | RuntimeException e) {
            return new double[] { Double.NaN, Double.NaN };
        }
    }

    /** A request's target: a URL and the Host to send (null: the URL's). */
    record Target(String url, String host) {
    }

    /** What one phase of load measured; latencies from each request's scheduled time. */
    record Phase(int rate, int sent, int errors, double p50Millis, double p99Millis, double maxMillis) {
    }

    /** How soon route changes were seen through the router, in ms: hostnames added, instances stopped, and both. */
    record Changes(int added, int stopped, double p50, double p99, double addedP99, double stoppedP99) {
    }

    /** Open-loop load: one sender thread keeps the schedule, the responses come back on the client's own loops. */
    private static final class Load {

        private final reactor.netty.http.client.HttpClient http;

        Load(reactor.netty.http.client.HttpClient http) {
            this.http = http;
        }

        Phase run(int rate, Duration duration, IntFunction<Target> targets, int spread) throws InterruptedException {
            int n = (int) (rate * duration.toSeconds());
            long interval = 1_000_000_000L / rate;
            long[] latencies = new long[n];
            AtomicInteger errors = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(n);
            long start = System.nanoTime() + 10_000_000L;
            for (int i = 0; i < n; i++) {
                long due = start + i * interval;
                for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
                Target target = targets.apply(ThreadLocalRandom.current().nextInt(spread));
                int slot = i;
                send(target).subscribe(status -> {
                    latencies[slot] = System.nanoTime() - due;
                    if (status != 200) {
                        errors.incrementAndGet();
                    }
                    done.countDown();
                }, error -> {
                    latencies[slot] = System.nanoTime() - due;
                    errors.incrementAndGet();
                    done.countDown();
                });
            }
            if (!done.await(60, TimeUnit.SECONDS)) {
                errors.addAndGet((int) done.getCount());
            }
            long[] sorted = latencies.clone();
            Arrays.sort(sorted);
            return new Phase(rate, n, errors.get(), sorted[n / 2] / 1e6, sorted[(int) (n * 0.99)] / 1e6,
                    sorted[n - 1] / 1e6);
        }

        reactor.core.publisher.Mono<Integer> send(Target target) {
            return http.headers(h -> {
                if (target.host() != null) {
                    h.set("Host", target.host());
                }
            }).get().uri(target.url()).responseSingle((response, body) -> body.asString()
                    .defaultIfEmpty("").map(b -> response.status().code()));
        }
    }

    private static void desire(ReceptorClient client, int routes, int instances) throws InterruptedException {
        ExecutorService pool = BenchThreads.pool(32);
        AtomicInteger failed = new AtomicInteger();
        for (int i = 0; i < routes; i++) {
            String body = lrp("app-" + i, instances, "app-" + i + ".bench.test");
            pool.submit(() -> {
                if (!desireOne(client, body)) {
                    failed.incrementAndGet();
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.MINUTES);
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " desires failed");
        }
    }

    /**
     * One desire, sent again (up to 5 times, a second apart) when the receptor could not take it: a busy machine's
     * 503 or timeout is no figure of P8's. A 409 after a retry is the first attempt having been accepted.
     */
    private static boolean desireOne(ReceptorClient client, String body) {
        for (int attempt = 1; attempt <= 5; attempt++) {
            int status;
            try {
                status = client.send("POST", "/v1/desired_lrps", body).statusCode();
            } catch (java.io.UncheckedIOException timedOut) {
                status = -1;
            }
            if (status == 201 || (status == 409 && attempt > 1)) {
                return true;
            }
            LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
        }
        return false;
    }

    private static String lrp(String guid, int instances, String hostname) {
        return """
                {"process_guid": "%s", "domain": "bench", "rootfs": "preloaded:host", "instances": %d,
                 "memory_mb": 16, "disk_mb": 16, "ports": [8080],
                 "routes": {"cf-router": [{"hostnames": ["%s"], "port": 8080}]},
                 "action": {"run": {"path": "sleep", "args": ["100000"]}}}""".formatted(guid, instances, hostname);
    }

    /**
     * Route changes seen through the router: {@code count} LRPs get a second hostname (PUT, then the time until it
     * answers 200), and {@code count} LRPs of one instance have it stopped (PUT instances 0, then the time until their
     * route answers 502: no instance left).
     */
    private Changes routeChanges(ReceptorClient client, Load load, String routerUrl, int count) throws Exception {
        List<Double> millis = new ArrayList<>();
        List<Double> added = new ArrayList<>();
        List<Double> stopped = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String extra = "extra-" + i + ".bench.test";
            String put = "{\"routes\": {\"cf-router\": [{\"hostnames\": [\"app-" + i + ".bench.test\", \"" + extra
                    + "\"], \"port\": 8080}]}}";
            long start = System.nanoTime();
            expect(client.send("PUT", "/v1/desired_lrps/app-" + i, put).statusCode() == 204, "PUT routes");
            added.add(awaitStatus(load, routerUrl, extra, 200, start));
        }
        for (int i = 0; i < count; i++) {
            expect(desireOne(client, lrp("solo-" + i, 1, "solo-" + i + ".bench.test")), "desire solo");
        }
        for (int i = 0; i < count; i++) {
            awaitStatus(load, routerUrl, "solo-" + i + ".bench.test", 200, System.nanoTime());
        }
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            expect(client.send("PUT", "/v1/desired_lrps/solo-" + i, "{\"instances\": 0}").statusCode() == 204,
                    "PUT instances 0");
            stopped.add(awaitStatus(load, routerUrl, "solo-" + i + ".bench.test", 502, start));
        }
        millis.addAll(added);
        millis.addAll(stopped);
        return new Changes(count, count, percentile(millis, 0.5), percentile(millis, 0.99), percentile(added, 0.99),
                percentile(stopped, 0.99));
    }

    private static double percentile(List<Double> values, double p) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted[Math.max(0, (int) Math.ceil(sorted.length * p) - 1)];
    }

    /**
     * The table's lag p99 from its histogram (the upper bound of the bucket that holds it, in ms): every batch of
     * changes the router applied during the run, from the desire of every instance to the stops.
     */
    private static double lagP99Millis(ProcessCluster.Service router) {
        double count = scrape(router, "drover_router_table_lag_seconds_count", "");
        List<double[]> buckets = new ArrayList<>();
        for (String le : List.of("0.05", "0.1", "0.25", "0.5", "1.0", "5.0", "+Inf")) {
            buckets.add(new double[] { le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le),
                scrape(router, "drover_router_table_lag_seconds_bucket", "le=\"" + le + "\"") });
        }
        for (double[] bucket : buckets) {
            if (bucket[1] >= count * 0.99) {
                return bucket[0] * 1000;
            }
        }
        return Double.NaN;
    }

    /** Polls the router every 5 ms until {@code host} answers {@code status}; ms since {@code start}. */
    private static double awaitStatus(Load load, String routerUrl, String host, int status, long start) {
        long deadline = start + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Integer seen = load.send(new Target(routerUrl + "/", host)).onErrorReturn(-1).block(Duration.ofSeconds(5));
            if (seen != null && seen == status) {
                return (System.nanoTime() - start) / 1e6;
            }
            LockSupport.parkNanos(5_000_000L);
        }
        throw new IllegalStateException(host + " never answered " + status + " through the router");
    }

    private static void awaitRouted(Database db, ProcessCluster.Service router, long total, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (db.count("SELECT count(*) FROM actual_lrps WHERE state = 'RUNNING'") < total
                || scrape(router, "drover_router_instances", "") < total) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the instances did not all reach the router's table in " + timeout);
            }
            Thread.sleep(500);
        }
    }

    /** One value of the router's Prometheus scrape (its actuator port): a series holding {@code label}; NaN when absent. */
    private static double scrape(ProcessCluster.Service router, String series, String label) {
        try {
            HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + router.healthPort() + "/actuator/prometheus")).build(),
                    HttpResponse.BodyHandlers.ofString());
            for (String line : scrape.body().split("\n")) {
                if ((line.startsWith(series + " ") || line.startsWith(series + "{")) && line.contains(label)) {
                    return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
        } catch (IOException e) {
            return Double.NaN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Double.NaN;
    }

    /** {@link #BACKENDS} tiny HTTP servers, one per port of the cells' host-port range, on shared threads. */
    private static List<HttpServer> startBackends(int firstPort) throws IOException {
        ExecutorService threads = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "bench-backend");
            t.setDaemon(true);
            return t;
        });
        byte[] body = "ok\n".getBytes(StandardCharsets.US_ASCII);
        List<HttpServer> servers = new ArrayList<>();
        for (int i = 0; i < BACKENDS; i++) {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                    firstPort + i), 512);
            server.createContext("/", exchange -> {
                exchange.getRequestBody().readAllBytes();
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.setExecutor(threads);
            server.start();
            servers.add(server);
        }
        return servers;
    }

    /** The first of {@code count} consecutive free loopback ports from 42000 on. */
    private static int freeRun(int count) {
        for (int first = 42_000; first < 60_000; first += count) {
            boolean free = true;
            for (int p = first; p < first + count && free; p++) {
                try (ServerSocket socket = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
                    socket.setReuseAddress(true);
                } catch (IOException taken) {
                    free = false;
                }
            }
            if (free) {
                return first;
            }
        }
        throw new IllegalStateException("no run of " + count + " free ports");
    }

    private static void expect(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException(what + " failed");
        }
    }

    private static void deleteQuietly(Path dir) {
        try {
            org.springframework.util.FileSystemUtils.deleteRecursively(dir);
        } catch (IOException e) {
            System.err.println("could not delete " + dir + ": " + e);
        }
    }
}
