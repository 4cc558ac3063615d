package io.drover.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local cluster with each service in a JVM of its own, as in production: PostgreSQL and the Kafka broker stay in
 * this JVM, and the receptor, auctioneer, converger, router and rep(s) run as child processes ({@link ServiceProcess}) with
 * the same properties the in-JVM cluster gives them, so CPU and heap can be measured per service. Each child logs to
 * {@code <data-dir>/logs/<service>.log} and serves {@code /actuator/health} on a loopback port of its own.
 */
public final class ProcessCluster implements RunningCluster {

    private static final Logger log = LoggerFactory.getLogger(ProcessCluster.class);
    /** Generous: four JVMs starting side by side on a busy two-core machine take minutes. */
    private static final Duration START_TIMEOUT = Duration.ofMinutes(10);

    private final LocalClusterSettings settings;
    private final LocalDatabase database;
    private volatile InProcessKafka kafka;
    private boolean kafkaDown;
    private final List<Service> services = Collections.synchronizedList(new ArrayList<>());
    /** How each child was spawned, so that a killed one can be started again as it was. */
    private final Map<String, Spawn> spawns = new java.util.concurrent.ConcurrentHashMap<>();
    private final String receptorUrl;
    private final String routerUrl;
    private final String logsSecret = ServiceArguments.randomSecret();

    /**
     * One child JVM: its name ({@code rep-service-2} for the third cell's rep), process, HTTP port and the port of its
     * actuator (the same but for the router's).
     */
    public record Service(String name, Process process, int port, int healthPort) {

        public Service(String name, Process process, int port) {
            this(name, process, port, port);
        }
    }

    private record Spawn(ServiceKind kind, int port, Map<String, String> own, Launch launch, int healthPort) {
    }

    /** Which services to start, and JVM options for each (defaults: G1, 1 GB heap, 2 GB for reps). */
    record Launch(Set<ServiceKind> kinds, Map<ServiceKind, List<String>> jvmOptions) {

        static Launch everything() {
            return new Launch(EnumSet.allOf(ServiceKind.class), Map.of());
        }

        List<String> optionsFor(ServiceKind kind) {
            return jvmOptions.getOrDefault(kind, List.of("-XX:+UseG1GC", kind == ServiceKind.REP ? "-Xmx2g" : "-Xmx1g"));
        }
    }

    private ProcessCluster(LocalClusterSettings settings, Launch launch) {
        quietLogging();
        this.settings = settings;
        if (settings.fresh()) {
            InProcessKafka.deleteRecursively(settings.dataDir());
        }
        this.database = LocalDatabase.start(settings.dataDir().resolve("postgres"));
        this.kafka = InProcessKafka.start(settings.dataDir().resolve("kafka"));
        // A separate receptor binds its port in its own process: prefer the asked one when free now, else any free one.
        int receptorPort = settings.receptorPort() > 0 && FreePorts.isFree(settings.receptorPort())
                ? settings.receptorPort() : FreePorts.any();
        this.receptorUrl = "http://127.0.0.1:" + receptorPort;
        int routerPort = settings.routerPort() > 0 && FreePorts.isFree(settings.routerPort()) ? settings.routerPort()
                : FreePorts.any();
        this.routerUrl = "http://127.0.0.1:" + routerPort;
        try {
            // The receptor goes first: it migrates the schema and creates the topics the others then find.
            if (launch.kinds().contains(ServiceKind.RECEPTOR)) {
                awaitHealthy(spawn(ServiceKind.RECEPTOR, "receptor-service", receptorPort, Map.of(), launch));
            }
            List<Service> rest = new ArrayList<>();
            for (ServiceKind kind : List.of(ServiceKind.AUCTIONEER, ServiceKind.CONVERGER)) {
                if (launch.kinds().contains(kind)) {
                    rest.add(spawn(kind, kind.applicationName(), FreePorts.any(), Map.of(), launch));
                }
            }
            if (launch.kinds().contains(ServiceKind.ROUTER)) {
                // Its actuator is on a port of its own (the router's port belongs to the applications).
                int health = FreePorts.any();
                rest.add(spawn(ServiceKind.ROUTER, ServiceKind.ROUTER.applicationName(), routerPort,
                        Map.of("management.server.port", String.valueOf(health)), launch, health));
            }
            for (int i = 0; launch.kinds().contains(ServiceKind.REP) && i < settings.repContexts(); i++) {
                rest.add(spawn(ServiceKind.REP, "rep-service-" + i, FreePorts.any(), CellProperties.forCell(settings, i),
                        launch));
            }
            rest.forEach(this::awaitHealthy);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    public static ProcessCluster start(LocalClusterSettings settings) {
        return new ProcessCluster(settings, Launch.everything());
    }

    static ProcessCluster start(LocalClusterSettings settings, Launch launch) {
        return new ProcessCluster(settings, launch);
    }

    private Service spawn(ServiceKind kind, String name, int port, Map<String, String> own, Launch launch) {
        return spawn(kind, name, port, own, launch, port);
    }

    private Service spawn(ServiceKind kind, String name, int port, Map<String, String> own, Launch launch,
            int healthPort) {
        Map<String, String> properties = new LinkedHashMap<>(own);
        properties.put("server.port", String.valueOf(port));
        properties.put("server.address", "127.0.0.1");
        String[] args = ServiceArguments.asArgs(ServiceArguments.of(kind, settings, new ServiceArguments.Infrastructure(
                database.jdbcUrl(), database.username(), database.password(), kafka.bootstrapServers(), logsSecret),
                properties));
        Path logFile = settings.dataDir().resolve("logs").resolve(name + ".log");
        try {
            Process process = JvmLauncher.start(ServiceProcess.class.getName(), launch.optionsFor(kind), args, logFile);
            Service service = new Service(name, process, port, healthPort);
            services.add(service);
            spawns.put(name, new Spawn(kind, port, own, launch, healthPort));
            log.info("process-cluster-service-spawned service={} pid={} port={} log={}", name, process.pid(), port,
                    logFile);
            return service;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    private void awaitHealthy(Service service) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.healthPort()
                + "/actuator/health")).timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!service.process().isAlive()) {
                throw new IllegalStateException(service.name() + " exited with " + service.process().exitValue()
                        + " while starting; see " + settings.dataDir().resolve("logs").resolve(service.name() + ".log"));
            }
            try {
                if (http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sleep(Duration.ofMillis(250));
        }
        throw new IllegalStateException(service.name() + " not healthy within " + START_TIMEOUT);
    }

    /**
     * Starts one more instance of a service beside the running ones (a standby converger or auctioneer, for failover
     * tests), named {@code name}; returns once it is healthy.
     */
    public Service startAnother(String applicationName, String name) {
        ServiceKind kind = java.util.Arrays.stream(ServiceKind.values())
                .filter(k -> k.applicationName().equals(applicationName) && k != ServiceKind.REP).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no service " + applicationName));
        Service service = spawn(kind, name, FreePorts.any(), Map.of(), Launch.everything());
        awaitHealthy(service);
        return service;
    }

    /** Kills a child JVM with SIGKILL, for failure tests (a rep's workloads keep running: they are not its children). */
    public void kill(String name) {
        Service service = services().stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no service " + name));
        service.process().destroyForcibly();
        try {
            service.process().waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        services.remove(service);
    }

    /** Starts a child killed by {@link #kill} again, with the same arguments and port; returns once it is healthy. */
    public Service respawn(String name) {
        Spawn spawn = spawns.get(name);
        if (spawn == null) {
            throw new IllegalArgumentException("no service " + name);
        }
        Service service = spawn(spawn.kind(), name, spawn.port(), spawn.own(), spawn.launch(), spawn.healthPort());
        awaitHealthy(service);
        return service;
    }

    /** Stops the broker (in this JVM), for failure tests: the services keep running and must ride out its absence. */
    public synchronized void stopKafka() {
        if (!kafkaDown) {
            kafka.close();
            kafkaDown = true;
        }
    }

    /** Starts the broker stopped by {@link #stopKafka()} again, on the same ports and with the same data. */
    public synchronized void startKafka() {
        if (kafkaDown) {
            kafka = kafka.restart();
            kafkaDown = false;
        }
    }

    /** Stops PostgreSQL (in this JVM), for failure tests. */
    public void stopDatabase() {
        database.stop();
    }

    /** Starts PostgreSQL stopped by {@link #stopDatabase()} again, on the same port and with the same data. */
    public void startDatabase() {
        database.restart();
    }

    /** The child JVMs, in the order they were started. */
    public List<Service> services() {
        synchronized (services) {
            return List.copyOf(services);
        }
    }

    @Override
    public String receptorUrl() {
        return receptorUrl;
    }

    @Override
    public String username() {
        return settings.username();
    }

    @Override
    public String routerUrl() {
        return routerUrl;
    }

    @Override
    public String password() {
        return settings.password();
    }

    @Override
    public String kafkaBootstrapServers() {
        return kafka.bootstrapServers();
    }

    @Override
    public String jdbcUrl() {
        return database.jdbcUrl();
    }

    /** SIGTERM to the reps (they stop their workloads), then to the other services, then Kafka and PostgreSQL. */
    @Override
    public void close() {
        List<Service> all = services();
        stop(all.stream().filter(s -> s.name().startsWith("rep-service")).toList());
        stop(all.stream().filter(s -> !s.name().startsWith("rep-service")).toList());
        synchronized (this) {
            if (!kafkaDown) {
                kafka.close();
            }
        }
        database.close();
    }

    private static void stop(List<Service> group) {
        group.forEach(s -> s.process().destroy());
        for (Service s : group) {
            try {
                if (!s.process().waitFor(60, TimeUnit.SECONDS)) {
                    log.warn("process-cluster-kill service={} after=60s", s.name());
                    s.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                s.process().destroyForcibly();
            }
        }
    }

    /**
     * No Spring context configures this JVM's logging (the services log to their own files), so the broker's INFO
     * chatter would reach the console: keep it to warnings, and this class's own lines.
     */
    private static void quietLogging() {
        if (LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root) {
            root.setLevel(ch.qos.logback.classic.Level.WARN);
            ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("io.drover.cluster"))
                    .setLevel(ch.qos.logback.classic.Level.INFO);
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
