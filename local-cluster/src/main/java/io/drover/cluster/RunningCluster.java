package io.drover.cluster;

/**
 * A running local cluster as its users see it from outside: the receptor's URL and credentials, and the PostgreSQL and
 * Kafka it runs on. Either every service in this JVM ({@link LocalCluster}) or each in a process of its own
 * ({@link ProcessCluster}).
 */
public interface RunningCluster extends AutoCloseable {

    String receptorUrl();

    String username();

    String password();

    String kafkaBootstrapServers();

    String jdbcUrl();

    /** Stops every service (cells first, their workloads with them), then Kafka and PostgreSQL. */
    @Override
    void close();
}
