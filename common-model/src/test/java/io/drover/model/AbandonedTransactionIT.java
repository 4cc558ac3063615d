package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.drover.test.WithDroverInfrastructure;
import java.lang.reflect.Field;
import java.net.Socket;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import javax.sql.DataSource;
import jdk.net.ExtendedSocketOptions;
import org.junit.jupiter.api.Test;
import org.postgresql.core.PGStream;
import org.postgresql.core.QueryExecutorBase;
import org.postgresql.jdbc.PgConnection;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A service that stops talking in the middle of a transaction (its container cut off the network, its JVM frozen)
 * holds the rows it wrote until PostgreSQL ends its session; without a bound, every write to those rows waits, and
 * the requests behind them take a service's whole pool (the compose truth checker's run of seed 4127: a rep cut off
 * mid-commit, and the receptor answered 503 until PostgreSQL restarted). Every Drover connection carries
 * {@code idle_in_transaction_session_timeout}, so PostgreSQL ends such a session and its locks go with it; and the
 * other way round, a connection probes a server that went silent while it waits for an answer.
 */
@SpringBootTest
@WithDroverInfrastructure
class AbandonedTransactionIT {

    @Autowired
    DataSource dataSource;
    @Autowired
    JdbcTemplate jdbc;

    @Test
    void everyConnectionEndsATransactionItsClientLeftIdle() {
        assertThat(jdbc.queryForObject("SHOW idle_in_transaction_session_timeout", String.class)).isEqualTo("10s");
        assertThat(jdbc.queryForObject("SHOW tcp_keepalives_idle", String.class)).isEqualTo("10");
    }

    @Test
    void everyConnectionProbesAServerThatWentSilent() throws Exception {
        try (Connection connection = dataSource.getConnection()) {
            Object executor = connection.unwrap(PgConnection.class).getQueryExecutor();
            Field stream = QueryExecutorBase.class.getDeclaredField("pgStream");
            stream.setAccessible(true);
            Socket socket = ((PGStream) stream.get(executor)).getSocket();
            assertThat(socket.getKeepAlive()).as("probes on").isTrue();
            assertThat(socket.getOption(ExtendedSocketOptions.TCP_KEEPIDLE)).as("after seconds idle").isEqualTo(10);
            assertThat(socket.getOption(ExtendedSocketOptions.TCP_KEEPINTERVAL)).isEqualTo(5);
            assertThat(socket.getOption(ExtendedSocketOptions.TCP_KEEPCOUNT)).isEqualTo(3);
        }
    }

    @Test
    void theRowsOfAClientThatWentSilentMidTransactionAreFreedWithinTheBound() throws Exception {
        jdbc.execute("CREATE TABLE IF NOT EXISTS abandoned_transaction_probe (id int PRIMARY KEY, v int NOT NULL)");
        jdbc.update("INSERT INTO abandoned_transaction_probe VALUES (1, 0) ON CONFLICT (id) DO NOTHING");
        Connection silent = dataSource.getConnection();
        try {
            silent.setAutoCommit(false);
            try (Statement statement = silent.createStatement()) {
                statement.executeUpdate("UPDATE abandoned_transaction_probe SET v = v + 1 WHERE id = 1");
            }
            // the client says nothing more: no commit, no rollback, as one cut off the network

            var writer = Executors.newSingleThreadExecutor();
            try {
                CompletableFuture<Integer> blocked = CompletableFuture.supplyAsync(
                        () -> jdbc.update("UPDATE abandoned_transaction_probe SET v = v + 10 WHERE id = 1"), writer);
                await("the waiting write goes through once PostgreSQL ended the silent session")
                        .atMost(Duration.ofSeconds(60)).until(blocked::isDone);
                assertThat(blocked.join()).isEqualTo(1);
            } finally {
                writer.shutdownNow();
            }
            assertThatThrownBy(() -> {
                try (Statement statement = silent.createStatement()) {
                    statement.execute("COMMIT");
                }
            }).as("the silent session was ended, its write rolled back").isInstanceOf(SQLException.class);
            assertThat(jdbc.queryForObject("SELECT v FROM abandoned_transaction_probe WHERE id = 1", Integer.class))
                    .as("only the waiting write counted").isEqualTo(10);
        } finally {
            try {
                silent.close();
            } catch (SQLException ignored) {
                // its session is gone already
            }
            jdbc.execute("DROP TABLE IF EXISTS abandoned_transaction_probe");
        }
    }
}
