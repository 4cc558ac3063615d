package io.drover.test;

import java.util.Map;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * Points a Spring test context at real infrastructure: a fresh database of the one PostgreSQL server of this JVM, and
 * the Kafka broker of this JVM. The backend is chosen by the system property {@code drover.test.backend}:
 * {@code embedded} (default: zonky PostgreSQL in-process, Spring's global embedded KRaft broker) or
 * {@code testcontainers} (Docker containers, opt-in with {@code -Ptestcontainers}).
 */
public class DroverInfrastructure implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        TestBackend backend = TestBackend.current();
        String jdbcUrl = backend.postgres().createDatabase();
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("drover-test-infrastructure",
                Map.of("spring.datasource.url", jdbcUrl,
                        "spring.datasource.username", backend.postgres().username(),
                        "spring.datasource.password", backend.postgres().password(),
                        "spring.kafka.bootstrap-servers", backend.kafkaBootstrapServers(),
                        // At JVM exit the database may already be gone while cached contexts close: fail fast.
                        "spring.datasource.hikari.connection-timeout", "2000")));
    }
}
