package io.drover.test;

/**
 * The infrastructure of this test JVM, created on first use. {@code drover.test.backend=embedded} (default) uses
 * zonky's PostgreSQL and Spring Kafka's global embedded broker (enabled for every Failsafe run by the parent POM);
 * {@code testcontainers} starts PostgreSQL and Kafka containers instead.
 */
public final class TestBackend {

    private static volatile TestBackend current;

    private final TestPostgres postgres;
    private final String kafkaBootstrapServers;

    private TestBackend(TestPostgres postgres, String kafkaBootstrapServers) {
        this.postgres = postgres;
        this.kafkaBootstrapServers = kafkaBootstrapServers;
    }

    public static TestBackend current() {
        TestBackend backend = current;
        if (backend == null) {
            synchronized (TestBackend.class) {
                if (current == null) {
                    current = create();
                }
                backend = current;
            }
        }
        return backend;
    }

    private static TestBackend create() {
        if ("testcontainers".equals(System.getProperty("drover.test.backend"))) {
            return new TestBackend(new ContainerPostgres(), ContainerKafka.bootstrapServers());
        }
        String brokers = System.getProperty("spring.embedded.kafka.brokers");
        if (brokers == null) {
            throw new IllegalStateException("no embedded Kafka broker: run integration tests with Failsafe, which sets "
                    + "spring.kafka.global.embedded.enabled=true (see the parent pom.xml)");
        }
        return new TestBackend(new TestPostgres.Embedded(), brokers);
    }

    public TestPostgres postgres() {
        return postgres;
    }

    public String kafkaBootstrapServers() {
        return kafkaBootstrapServers;
    }
}
