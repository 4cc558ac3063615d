package io.drover.converger.pass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.converger.ConvergerApplication;
import io.drover.model.leader.LeaderElection;
import io.drover.test.TestBackend;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two convergers on one database, each started as a deployment would start it (datasource and Kafka given as
 * arguments): one leader runs the passes, the hot standby runs none until the leader goes.
 */
class LeaderElectionIT {

    @Test
    void onlyTheLeaderRunsPassesAndTheStandbyTakesOverWhenItStops() throws Exception {
        TestBackend backend = TestBackend.current();
        String database = backend.postgres().createDatabase();
        try (ConfigurableApplicationContext first = start(backend, database);
             ConfigurableApplicationContext second = start(backend, database)) {
            assertThat(health(first)).contains("\"status\":\"UP\"");
            await().atMost(Duration.ofSeconds(20)).until(() -> passes(first) + passes(second) >= 5);
            ConfigurableApplicationContext leader = isLeader(first) ? first : second;
            ConfigurableApplicationContext standby = leader == first ? second : first;

            assertThat(isLeader(leader)).isTrue();
            assertThat(isLeader(standby)).isFalse();
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> passes(standby) == 0);
            assertThat(passes(leader)).isGreaterThanOrEqualTo(5);

            leader.close();

            await().atMost(Duration.ofSeconds(10)).until(() -> isLeader(standby) && passes(standby) > 0);
        }
    }

    private static ConfigurableApplicationContext start(TestBackend backend, String database) {
        // command-line arguments, so they win over application.yml
        return new SpringApplicationBuilder(ConvergerApplication.class).run(
                "--server.port=0",
                "--spring.datasource.url=" + database,
                "--spring.datasource.username=" + backend.postgres().username(),
                "--spring.datasource.password=" + backend.postgres().password(),
                "--spring.kafka.bootstrap-servers=" + backend.kafkaBootstrapServers(),
                "--drover.converger.interval=100ms",
                "--drover.converger.leader-ttl=3s");
    }

    private static String health(ConfigurableApplicationContext context) throws Exception {
        URI uri = URI.create("http://localhost:" + context.getEnvironment().getProperty("local.server.port")
                + "/actuator/health");
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private static boolean isLeader(ConfigurableApplicationContext context) {
        return context.getBean("convergerLeaderElection", LeaderElection.class).isLeader();
    }

    private static double passes(ConfigurableApplicationContext context) {
        return context.getBean(MeterRegistry.class).counter("drover.convergence.passes", "result", "ok").count();
    }
}
