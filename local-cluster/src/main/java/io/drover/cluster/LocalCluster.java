package io.drover.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The whole of Drover in one JVM: embedded PostgreSQL, an in-process Kafka broker, the receptor, converger and
 * auctioneer, and cells (process executor by default, or one rep hosting many simulated cells). Each service runs in
 * its own Spring application context, configured exactly as it would be in its own process, so what runs here is
 * what runs in production. Used by the launcher, the end-to-end tests and the benchmark.
 */
public final class LocalCluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LocalCluster.class);

    private final LocalClusterSettings settings;
    private final LocalDatabase database;
    private volatile InProcessKafka kafka;
    private volatile boolean kafkaDown;
    private final List<ConfigurableApplicationContext> services = new ArrayList<>();
    private final List<ConfigurableApplicationContext> reps = new CopyOnWriteArrayList<>();
    private final String receptorUrl;
    /** Shared by the receptor and the reps' log servers; made per start, never printed. */
    private final String logsSecret = randomSecret();

    private LocalCluster(LocalClusterSettings settings) {
        this.settings = settings;
        if (settings.fresh()) {
            InProcessKafka.deleteRecursively(settings.dataDir());
        }
        this.database = LocalDatabase.start(settings.dataDir().resolve("postgres"));
        this.kafka = InProcessKafka.start(settings.dataDir().resolve("kafka"));
        int receptorPort = FreePorts.preferring(settings.receptorPort());
        // The receptor goes first: it migrates the schema and creates the topics the others then find.
        services.add(launch(ServiceKind.RECEPTOR, Map.of("server.port", String.valueOf(receptorPort),
                "server.address", "127.0.0.1")));
        // The rest start side by side: much of a context's start-up is waiting, not computing.
        CompletableFuture<ConfigurableApplicationContext> auctioneer = async(() -> launch(ServiceKind.AUCTIONEER, Map.of()));
        CompletableFuture<ConfigurableApplicationContext> converger = async(() -> launch(ServiceKind.CONVERGER, Map.of()));
        List<CompletableFuture<Void>> cells = new ArrayList<>();
        for (int i = 0; i < settings.repContexts(); i++) {
            reps.add(null);
        }
        for (int i = 0; i < settings.repContexts(); i++) {
            int cell = i;
            cells.add(async(() -> {
                startCell(cell);
                return null;
            }));
        }
        services.add(auctioneer.join());
        services.add(converger.join());
        cells.forEach(CompletableFuture::join);
        this.receptorUrl = "http://127.0.0.1:" + receptorPort;
    }

    public static LocalCluster start(LocalClusterSettings settings) {
        return new LocalCluster(settings);
    }

    /** Starts (or restarts) the rep of cell {@code i}. */
    public void startCell(int i) {
        ConfigurableApplicationContext current = reps.get(i);
        if (current == null || !current.isActive()) {
            reps.set(i, launch(ServiceKind.REP, CellProperties.forCell(settings, i)));
        }
    }

    /**
     * Starts the rep of one more process cell, in a zone of its own, for failure tests; returns its index for
     * {@link #startCell} and {@link #stopCell}.
     */
    public synchronized int addCell() {
        if (settings.simulatedCells() > 0) {
            throw new IllegalStateException("the simulated cells all live in one rep");
        }
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

    /** The rep contexts, one per cell (or one for all simulated cells). */
    public List<ConfigurableApplicationContext> reps() {
        return Collections.unmodifiableList(reps);
    }

    private static <T> CompletableFuture<T> async(java.util.function.Supplier<T> work) {
        CompletableFuture<T> future = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                future.complete(work.get());
            } catch (Throwable t) {
                future.completeExceptionally(t);
            }
        }, "local-cluster-start");
        thread.start();
        return future;
    }

    @SafeVarargs
    private ConfigurableApplicationContext launch(ServiceKind kind, Map<String, String> own,
            ApplicationContextInitializer<ConfigurableApplicationContext>... initializers) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.application.name", kind.applicationName());
        properties.put("spring.datasource.url", database.jdbcUrl());
        properties.put("spring.datasource.username", database.username());
        properties.put("spring.datasource.password", database.password());
        properties.put("spring.kafka.bootstrap-servers", kafka.bootstrapServers());
        properties.put("server.port", "0");
        properties.put("spring.main.banner-mode", "off");
        properties.put("drover.receptor.username", settings.username());
        properties.put("drover.receptor.password", settings.password());
        properties.put("drover.logs.secret", logsSecret);
        properties.putAll(kind.defaults(settings));
        properties.putAll(own);
        properties.putAll(settings.extraProperties());
        String[] args = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        long started = System.nanoTime();
        ConfigurableApplicationContext context = new SpringApplicationBuilder(kind.applicationClass())
                .logStartupInfo(false).registerShutdownHook(false).initializers(initializers).run(args);
        log.info("local-cluster-service-started service={} duration_ms={}", kind.applicationName(),
                Duration.ofNanos(System.nanoTime() - started).toMillis());
        return context;
    }

    private static String randomSecret() {
        byte[] bytes = new byte[24];
        new java.security.SecureRandom().nextBytes(bytes);
        return java.util.HexFormat.of().formatHex(bytes);
    }

    public String receptorUrl() {
        return receptorUrl;
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

    @Override
    public synchronized void close() {
        // Cells stop their workloads (grace period, then kill) side by side rather than one after the other.
        reps.stream().filter(r -> r != null && r.isActive()).map(r -> async(() -> {
            r.close();
            return null;
        })).toList().forEach(f -> f.exceptionally(e -> null).join());
        List<AutoCloseable> closing = new ArrayList<>();
        for (int i = services.size() - 1; i >= 0; i--) {
            closing.add(services.get(i));
        }
        if (!kafkaDown) {
            closing.add(kafka);
        }
        closing.add(database);
        for (AutoCloseable c : closing) {
            try {
                c.close();
            } catch (Exception e) {
                log.warn("local-cluster-close-failed part={} cause={}", c, e.toString());
            }
        }
    }
}
