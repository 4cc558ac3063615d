package io.drover.cluster;

import io.drover.rep.agent.CellAgent;
import io.drover.rep.agent.CellAgents;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.kafka.common.utils.AppInfoParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The whole of Drover in one JVM: embedded PostgreSQL, an in-process Kafka broker, the receptor, converger,
 * auctioneer and router, and cells (process executor by default, or one rep hosting many simulated cells). Each service runs in
 * its own Spring application context, configured exactly as it would be in its own process, so what runs here is
 * what runs in production. Used by the launcher, the end-to-end tests and the benchmark.
 */
public final class LocalCluster implements RunningCluster {

    private static final Logger log = LoggerFactory.getLogger(LocalCluster.class);

    private final LocalClusterSettings settings;
    private final DataDirLock lock;
    private volatile LocalDatabase database;
    private volatile InProcessKafka kafka;
    private volatile boolean kafkaDown;
    private final List<ConfigurableApplicationContext> services = new ArrayList<>();
    private final List<ConfigurableApplicationContext> reps = new CopyOnWriteArrayList<>();
    private volatile String receptorUrl;
    private volatile String routerUrl;
    private boolean closed;
    /** Shared by the receptor and the reps' log servers; made per start, never printed. */
    private final String logsSecret = ServiceArguments.randomSecret();

    private LocalCluster(LocalClusterSettings settings) {
        this.settings = settings;
        this.lock = DataDirLock.acquire(settings.dataDir());
    }

    public static LocalCluster start(LocalClusterSettings settings) {
        return start(settings, step -> { });
    }

    /**
     * Starts the cluster, telling {@code progress} as each stage is up. When any part fails to start, the parts that did
     * start are stopped again and a {@link LocalClusterStartException} says which part failed and why.
     */
    public static LocalCluster start(LocalClusterSettings settings, Consumer<String> progress) {
        LocalCluster cluster = new LocalCluster(settings);
        // Ctrl-C while starting: stop what has started (PostgreSQL is a process of its own and would stay behind).
        Thread interrupted = new Thread(cluster::close, "local-cluster-start-interrupted");
        Runtime.getRuntime().addShutdownHook(interrupted);
        try {
            cluster.startParts(progress);
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e instanceof LocalClusterStartException known ? known
                    : new LocalClusterStartException("the local cluster", e);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(interrupted);
            } catch (IllegalStateException exiting) {
                // the hook is running
            }
        }
    }

    private void startParts(Consumer<String> progress) {
        LeftoverPostgres.stop(settings.dataDir().resolve("postgres")).ifPresent(progress);
        if (settings.fresh()) {
            for (String owned : List.of("postgres", "kafka", "cells")) {
                InProcessKafka.deleteRecursively(settings.dataDir().resolve(owned));
            }
        }
        // PostgreSQL and the broker know nothing of each other: they start side by side.
        var db = Parts.start("PostgreSQL", () -> LocalDatabase.start(settings.dataDir().resolve("postgres")));
        var broker = Parts.start("Kafka", () -> InProcessKafka.start(settings.dataDir().resolve("kafka")));
        Parts.awaitAll(db, broker);
        database = kept(Parts.started(db));
        kafka = kept(Parts.started(broker));
        Parts.rethrowFirstFailure(db, broker);
        progress.accept("PostgreSQL 15 and Kafka " + AppInfoParser.getVersion() + " started");
        // Then every service and cell side by side: a context starts on one thread, and each migrates the schema (under
        // Flyway's lock) and creates the topics it needs, as the containers of a deployment do.
        var receptor = Parts.start(ServiceKind.RECEPTOR.applicationName(), () -> ReceptorPort.launch(
                settings.receptorPort(), own -> launch(ServiceKind.RECEPTOR, own)));
        var auctioneer = Parts.start(ServiceKind.AUCTIONEER.applicationName(), () -> launch(ServiceKind.AUCTIONEER,
                Map.of()));
        var converger = Parts.start(ServiceKind.CONVERGER.applicationName(), () -> launch(ServiceKind.CONVERGER,
                Map.of()));
        var router = Parts.start(ServiceKind.ROUTER.applicationName(), () -> ReceptorPort.launch(
                settings.routerPort(), own -> launch(ServiceKind.ROUTER, own)));
        List<CompletableFuture<?>> parts = new ArrayList<>(List.of(receptor, auctioneer, converger, router));
        for (int i = 0; i < settings.repContexts(); i++) {
            reps.add(null);
        }
        for (int i = 0; i < settings.repContexts(); i++) {
            int cell = i;
            parts.add(Parts.start("rep-service (cell " + (cell + 1) + ")", () -> {
                startCell(cell);
                return cell;
            }));
        }
        CompletableFuture<?>[] all = parts.toArray(CompletableFuture[]::new);
        Parts.awaitAll(all);
        Stream.of(receptor, auctioneer, converger, router).map(Parts::started).filter(Objects::nonNull)
                .forEach(this::addService);
        Parts.rethrowFirstFailure(all);
        receptorUrl = "http://127.0.0.1:" + ReceptorPort.of(receptor.join());
        routerUrl = "http://127.0.0.1:" + ReceptorPort.of(router.join());
        progress.accept("receptor, auctioneer, converger, router and " + (settings.simulatedCells() > 0
                ? settings.simulatedCells() + " simulated cells" : settings.cells() + " cells") + " started");
    }

    private synchronized void addService(ConfigurableApplicationContext context) {
        services.add(kept(context));
    }

    /** A part that finished starting, unless the cluster was closed meanwhile: then it is stopped at once. */
    private synchronized <T extends AutoCloseable> T kept(T part) {
        if (closed && part != null) {
            try {
                part.close();
            } catch (Exception e) {
                log.warn("local-cluster-close-failed part={} cause={}", part, e.toString());
            }
            throw new LocalClusterStartException("the local cluster was stopped while it started");
        }
        return part;
    }

    /** Starts (or restarts) the rep of cell {@code i}. */
    public void startCell(int i) {
        ConfigurableApplicationContext current = reps.get(i);
        if (current == null || !current.isActive()) {
            reps.set(i, kept(launch(ServiceKind.REP, CellProperties.forCell(settings, i))));
        }
    }

    /**
     * Starts the rep of one more cell for failure tests: a process cell in a zone of its own, or a rep of one simulated
     * cell; returns its index for {@link #startCell}, {@link #stopCell} and {@link #cellIds}.
     */
    public synchronized int addCell() {
        reps.add(null);
        int i = reps.size() - 1;
        startCell(i);
        return i;
    }

    /** Stops the rep of cell {@code i} (its workloads stop with it). */
    public void stopCell(int i) {
        ConfigurableApplicationContext rep = reps.get(i);
        if (rep != null) {
            rep.close();
        }
    }

    /** Stops the Kafka broker, for failure tests: the services keep running and must ride out its absence. */
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

    /** Stops PostgreSQL, for failure tests: the services keep running and must ride out its absence. */
    public void stopDatabase() {
        database.stop();
    }

    /** Starts PostgreSQL stopped by {@link #stopDatabase()} again, on the same port and with the same data. */
    public void startDatabase() {
        database.restart();
    }

    /**
     * Starts one more instance of a service (a standby converger, say) beside the running ones, given extra properties
     * and initializers (tests register their beans with these). It stops with the cluster.
     */
    @SafeVarargs
    public final ConfigurableApplicationContext startService(String applicationName, Map<String, String> properties,
            ApplicationContextInitializer<ConfigurableApplicationContext>... initializers) {
        ServiceKind kind = Arrays.stream(ServiceKind.values())
                .filter(k -> k.applicationName().equals(applicationName) && k != ServiceKind.REP).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no service " + applicationName));
        ConfigurableApplicationContext context = launch(kind, properties, initializers);
        synchronized (this) {
            services.add(context);
        }
        return context;
    }

    /** The application context of a running service, by its {@code spring.application.name} (the first started). */
    public synchronized ConfigurableApplicationContext service(String applicationName) {
        return services.stream().filter(ConfigurableApplicationContext::isActive)
                .filter(c -> applicationName.equals(c.getEnvironment().getProperty("spring.application.name")))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no service " + applicationName));
    }

    /** The cells hosted by rep {@code i} (running). */
    public List<String> cellIds(int i) {
        return reps.get(i).getBean(CellAgents.class).all().stream().map(CellAgent::cellId).toList();
    }

    /** The rep contexts, one per cell (or one for all simulated cells). */
    public List<ConfigurableApplicationContext> reps() {
        return Collections.unmodifiableList(reps);
    }

    @SafeVarargs
    private ConfigurableApplicationContext launch(ServiceKind kind, Map<String, String> own,
            ApplicationContextInitializer<ConfigurableApplicationContext>... initializers) {
        String[] args = ServiceArguments.asArgs(ServiceArguments.of(kind, settings, new ServiceArguments.Infrastructure(
                database.jdbcUrl(), database.username(), database.password(), kafka.bootstrapServers(), logsSecret), own));
        long started = System.nanoTime();
        ConfigurableApplicationContext context = new SpringApplicationBuilder(kind.applicationClass())
                .logStartupInfo(false).registerShutdownHook(false).listeners(LoggingSetup.listeners())
                .initializers(initializers).run(args);
        log.info("local-cluster-service-started service={} duration_ms={}", kind.applicationName(),
                Duration.ofNanos(System.nanoTime() - started).toMillis());
        return context;
    }


    public String receptorUrl() {
        return receptorUrl;
    }

    @Override
    public String routerUrl() {
        return routerUrl;
    }

    public String username() {
        return settings.username();
    }

    public String password() {
        return settings.password();
    }

    public String kafkaBootstrapServers() {
        return kafka.bootstrapServers();
    }

    public String jdbcUrl() {
        return database.jdbcUrl();
    }

    public synchronized List<ConfigurableApplicationContext> services() {
        return List.copyOf(services);
    }

    /** Stops every part that runs, cells first (side by side: each gives its workloads a grace period), then the
     * services, the broker and PostgreSQL; then lets go of the data directory. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        CompletableFuture<?>[] cells = reps.stream().filter(r -> r != null && r.isActive())
                .map(r -> Parts.start("closing a cell", () -> {
                    r.close();
                    return r;
                })).toArray(CompletableFuture[]::new);
        Parts.awaitAll(cells);
        List<AutoCloseable> closing = new ArrayList<>();
        for (int i = services.size() - 1; i >= 0; i--) {
            closing.add(services.get(i));
        }
        if (!kafkaDown && kafka != null) {
            closing.add(kafka);
        }
        if (database != null) {
            closing.add(database);
        }
        closing.add(lock);
        for (AutoCloseable c : closing) {
            try {
                c.close();
            } catch (Exception e) {
                log.warn("local-cluster-close-failed part={} cause={}", c, e.toString());
            }
        }
    }
}
