package io.drover.model.config;

import java.security.Security;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Defaults every Drover service shares, at the lowest precedence so any service or user setting wins: JDBC batching
 * (rewritten into multi-row INSERTs) for the lifecycle's batch operations, connections named after their service
 * whose abandoned transactions PostgreSQL ends, durable string producers and manual-offset-free consumers; and a
 * short cache of looked-up addresses, so that a peer that comes back at another address is found within seconds.
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
            // and the other way round: a connection probes a server that went silent while it waits for an answer
            // (ProbingSocketFactory), so a statement sent to a vanished PostgreSQL fails instead of waiting for good
            Map.entry("spring.datasource.hikari.data-source-properties.socketFactory",
                    ProbingSocketFactory.class.getName()),
            Map.entry("spring.datasource.hikari.data-source-properties.tcpKeepAlive", "true"),
            Map.entry("spring.kafka.producer.acks", "all"),
            // topics that already exist get the configs Drover needs (e.g. max.message.bytes) when a service starts
            Map.entry("spring.kafka.admin.modify-topic-configs", "true"),
            Map.entry("spring.kafka.consumer.auto-offset-reset", "earliest"),
            Map.entry("spring.kafka.consumer.enable-auto-commit", "false"),
            Map.entry("management.endpoints.web.exposure.include", "health,info,prometheus"),
            Map.entry("management.endpoint.health.probes.enabled", "true"));

    /**
     * Seconds the JVM keeps a looked-up address, and a failed lookup. Its defaults (30 s and 10 s) outlast a
     * PostgreSQL or Kafka restart that moves the peer to another address (Docker gives a restarted container whatever
     * address is free; a failover may move a DNS name), and every new connection meanwhile goes to the old address or
     * none. Lookups happen only when a connection is made, so a short cache costs nothing in steady state.
     */
    static final String ADDRESS_TTL_SECONDS = "5";
    static final String FAILED_LOOKUP_TTL_SECONDS = "1";
    private static final String JDK_FAILED_LOOKUP_TTL_SECONDS = "10";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        shortenAddressCache();
        environment.getPropertySources().addLast(new MapPropertySource("drover-defaults", DEFAULTS));
    }

    /**
     * Leaves an operator's setting alone: the security properties, or the older system properties the JVM falls back
     * to; the JDK's own file sets the failed lookups' 10 s, which counts as no setting. Takes effect only before the
     * JVM's first lookup, when it reads its policy: a service's environment is prepared before anything connects.
     */
    static void shortenAddressCache() {
        if (Security.getProperty("networkaddress.cache.ttl") == null
                && System.getProperty("sun.net.inetaddr.ttl") == null) {
            Security.setProperty("networkaddress.cache.ttl", ADDRESS_TTL_SECONDS);
        }
        String failed = Security.getProperty("networkaddress.cache.negative.ttl");
        if ((failed == null || failed.equals(JDK_FAILED_LOOKUP_TTL_SECONDS))
                && System.getProperty("sun.net.inetaddr.negative.ttl") == null) {
            Security.setProperty("networkaddress.cache.negative.ttl", FAILED_LOOKUP_TTL_SECONDS);
        }
    }
}
