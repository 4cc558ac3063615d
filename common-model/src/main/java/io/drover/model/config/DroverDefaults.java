package io.drover.model.config;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Defaults every Drover service shares, at the lowest precedence so any service or user setting wins: JDBC batching
 * (rewritten into multi-row INSERTs) for the lifecycle's batch operations, connections named after their service
 * whose abandoned transactions PostgreSQL ends, durable string producers and manual-offset-free consumers.
 */
public class DroverDefaults implements EnvironmentPostProcessor {

    static final Map<String, Object> DEFAULTS = Map.ofEntries(
            Map.entry("spring.datasource.hikari.maximum-pool-size", "16"),
            // batched INSERTs (audit rows, outbox rows, new actual LRPs) become multi-row statements
            Map.entry("spring.datasource.hikari.data-source-properties.reWriteBatchedInserts", "true"),
            // PostgreSQL then says which service a connection is (pg_stat_activity, the relay's held-back warning, the
            // benchmark's split of PostgreSQL's CPU), where the driver would call every one "PostgreSQL JDBC Driver"
            Map.entry("spring.datasource.hikari.data-source-properties.ApplicationName",
                    "${spring.application.name:drover}"),
            // A client that stops talking mid-transaction (cut off the network, frozen) keeps the rows it wrote locked
            // until PostgreSQL ends its session, and every write to them waits: end a transaction left idle for 10 s
            // (Drover's own never pause that long between statements), and probe a silent peer after 10 s idle so
            // that a vanished client's session goes within about 25 s (docs/architecture.md, "Database sessions")
            Map.entry("spring.datasource.hikari.data-source-properties.options",
                    "-c idle_in_transaction_session_timeout=10s -c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5"
                            + " -c tcp_keepalives_count=3"),
            Map.entry("spring.kafka.producer.acks", "all"),
            // topics that already exist get the configs Drover needs (e.g. max.message.bytes) when a service starts
            Map.entry("spring.kafka.admin.modify-topic-configs", "true"),
            Map.entry("spring.kafka.consumer.auto-offset-reset", "earliest"),
            Map.entry("spring.kafka.consumer.enable-auto-commit", "false"),
            Map.entry("management.endpoints.web.exposure.include", "health,info,prometheus"),
            Map.entry("management.endpoint.health.probes.enabled", "true"));

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        environment.getPropertySources().addLast(new MapPropertySource("drover-defaults", DEFAULTS));
    }
}
