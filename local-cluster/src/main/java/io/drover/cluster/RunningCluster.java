package io.drover.cluster;

/**
 * A running local cluster as its users see it from outside: the receptor's URL and credentials, the router's URL,
 * and the PostgreSQL and Kafka it runs on. Either every service in this JVM ({@link LocalCluster}) or each in a process of its own
 * ({@link ProcessCluster}).
 */
public interface RunningCluster extends AutoCloseable {

    String receptorUrl();

    /** The router's URL (SPEC 16): requests to it reach the LRPs by their routes' hostnames. */
    String routerUrl();

    String username();

    String password();

    String kafkaBootstrapServers();

    String jdbcUrl();

    /** Stops every service (cells first, their workloads with them), then Kafka and PostgreSQL. */
    @Override
    void close();
}
