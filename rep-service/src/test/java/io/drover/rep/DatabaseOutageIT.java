package io.drover.rep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpState;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerState;
import io.drover.test.TestBackend;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** SPEC 8.1: a rep that cannot reach PostgreSQL keeps its containers running, keeps trying, and catches up. */
class DatabaseOutageIT extends SingleCellSupport {

    @Autowired
    MeterRegistry meters;

    @Test
    void containersOutliveADatabaseOutageAndWhatHappenedMeanwhileIsRecordedAfterwards() {
        String guid = lrps.desire("outage", 2, 64);
        lrps.place(guid, CELL, 0, 1);
        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.all(guid).stream()
                .allMatch(a -> a.state() == ActualLrpState.RUNNING));
        List<String> instances = lrps.all(guid).stream().map(ActualLrp::instanceGuid).toList();
        double failuresBefore = heartbeatFailures();

        String database = jdbc.queryForObject("SELECT current_database()", String.class);
        JdbcTemplate admin = admin(jdbc.queryForObject("SELECT inet_server_port()", Integer.class));
        admin.execute("ALTER DATABASE " + database + " ALLOW_CONNECTIONS false");
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + database + "'");
        try {
            executor().crash(instances.get(0), "exited with status 7");
            await().atMost(Duration.ofSeconds(30)).until(() -> heartbeatFailures() > failuresBefore);
            assertThat(executor().container(instances.get(1))).get().extracting(Container::state)
                    .isEqualTo(ContainerState.RUNNING);
        } finally {
            admin.execute("ALTER DATABASE " + database + " ALLOW_CONNECTIONS true");
        }

        // The pool needs a moment to reconnect after the outage: reads may fail until it has.
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> lrps.find(guid, 0).orElseThrow().crashCount() == 1);
        assertThat(lrps.find(guid, 0).orElseThrow().crashReason()).isEqualTo("exited with status 7");
        assertThat(lrps.find(guid, 1).orElseThrow()).satisfies(a -> {
            assertThat(a.state()).isEqualTo(ActualLrpState.RUNNING);
            assertThat(a.instanceGuid()).isEqualTo(instances.get(1));
        });
    }

    private double heartbeatFailures() {
        return meters.counter("drover.rep.heartbeat.failures").count();
    }

    /** A connection to the server's maintenance database, which the outage leaves alone. */
    private static JdbcTemplate admin(int port) {
        TestBackend backend = TestBackend.current();
        return new JdbcTemplate(new DriverManagerDataSource("jdbc:postgresql://localhost:" + port + "/postgres",
                backend.postgres().username(), backend.postgres().password()));
    }
}
