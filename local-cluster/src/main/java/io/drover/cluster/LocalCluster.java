package io.drover.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.builder.SpringApplicationBuilder;
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
    private final InProcessKafka kafka;
    private final List<ConfigurableApplicationContext> services = new ArrayList<>();
    private final List<ConfigurableApplicationContext> reps = new ArrayList<>();
    private final String receptorUrl;

    private LocalCluster(LocalClusterSettings settings) {
        this.settings = settings;
        if (settings.fresh()) {
            InProcessKafka.deleteRecursively(settings.dataDir());
        }
        this.database = LocalDatabase.start(settings.dataDir().resolve("postgres"));
        this.kafka = InProcessKafka.start(settings.dataDir().resolve("kafka"));
        int receptorPort = FreePorts.preferring(settings.receptorPort());
        services.add(launch(ServiceKind.RECEPTOR, Map.of("server.port", String.valueOf(receptorPort),
                "server.address", "127.0.0.1")));
        services.add(launch(ServiceKind.AUCTIONEER, Map.of()));
        services.add(launch(ServiceKind.CONVERGER, Map.of()));
        for (int i = 0; i < settings.repContexts(); i++) {
            startCell(i);
        }
        this.receptorUrl = "http://127.0.0.1:" + receptorPort;
    }

    public static LocalCluster start(LocalClusterSettings settings) {
        return new LocalCluster(settings);
    }

    /** Starts (or restarts) the rep of cell {@code i}. */
    public synchronized void startCell(int i) {
        while (reps.size() <= i) {
            reps.add(null);
        }
        if (reps.get(i) == null || !reps.get(i).isActive()) {
            reps.set(i, launch(ServiceKind.REP, CellProperties.forCell(settings, i)));
        }
    }

    /** Stops the rep of cell {@code i} as a crash would: presence is left to expire. */
    public synchronized void stopCell(int i) {
        ConfigurableApplicationContext rep = reps.get(i);
        if (rep != null) {
            rep.close();
        }
    }

    private ConfigurableApplicationContext launch(ServiceKind kind, Map<String, String> own) {
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
        properties.putAll(kind.defaults(settings));
        properties.putAll(own);
        properties.putAll(settings.extraProperties());
        String[] args = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        long started = System.nanoTime();
        ConfigurableApplicationContext context = new SpringApplicationBuilder(kind.applicationClass())
                .logStartupInfo(false).registerShutdownHook(false).run(args);
        log.info("local-cluster-service-started service={} duration_ms={}", kind.applicationName(),
                Duration.ofNanos(System.nanoTime() - started).toMillis());
        return context;
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

    public List<ConfigurableApplicationContext> services() {
        return Collections.unmodifiableList(services);
    }

    @Override
    public synchronized void close() {
        List<AutoCloseable> closing = new ArrayList<>();
        reps.stream().filter(r -> r != null && r.isActive()).forEach(closing::add);
        for (int i = services.size() - 1; i >= 0; i--) {
            closing.add(services.get(i));
        }
        closing.add(kafka);
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
