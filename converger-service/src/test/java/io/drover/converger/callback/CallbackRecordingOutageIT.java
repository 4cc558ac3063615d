package io.drover.converger.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.drover.converger.ConvergerIntegrationTest;
import io.drover.converger.TaskProperties;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.json.Json;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.RunAction;
import io.drover.model.messaging.Outbox;
import io.drover.model.messaging.OutboxSignal;
import io.drover.model.task.TaskCompletion;
import io.drover.model.task.TaskDefinition;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskStart;
import io.drover.model.task.TaskState;
import io.drover.test.MutableClock;
import io.drover.test.TcpProxy;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Callback answers that end while PostgreSQL is unreachable, against the real database behind a {@link TcpProxy} the
 * test cuts: the callbacks under test reach it through the proxy only (the context's own worker is stopped), so the
 * context's pool, and the leader election renewing through it, never notice the outage. The context's pass, which
 * hands a RESOLVING task back after its resolving-timeout (2 min), counts it on a clock that moves only when a test
 * says so: until then only an answer kept for the next round can get the task out of RESOLVING.
 */
@ConvergerIntegrationTest
class CallbackRecordingOutageIT {

    static final Actor TEST = Actor.service("test");

    @Autowired
    MutableClock clock;
    @Autowired
    TaskLifecycle tasks;
    @Autowired
    TaskReads reads;
    @Autowired
    CellPresence cells;
    @Autowired
    CompletionCallbacks contextCallbacks;
    @Value("${spring.datasource.url}")
    String databaseUrl;
    @Value("${spring.datasource.username}")
    String username;
    @Value("${spring.datasource.password}")
    String password;

    TcpProxy proxy;
    HttpServer receiver;
    CompletionCallbacks callbacks;
    final AtomicInteger connected = new AtomicInteger();
    final AtomicInteger refused = new AtomicInteger();
    final List<JsonNode> bodies = new CopyOnWriteArrayList<>();
    final AtomicBoolean answeredUnavailable = new AtomicBoolean();

    @BeforeEach
    void receiverThatCutsTheDatabaseBeforeItsFirstAnswer() throws Exception {
        contextCallbacks.stop();
        proxy = TcpProxy.forward(URI.create(databaseUrl.substring("jdbc:".length())).getPort());
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/done", exchange -> {
            bodies.add(Json.tree(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            if (bodies.size() > 1) {
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
                return;
            }
            proxy.cut(); // PostgreSQL goes away while the receiver answers: the 503 cannot be recorded
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
            answeredUnavailable.set(true);
        });
        receiver.start();
    }

    @AfterEach
    void contextCallbacksBack() {
        if (callbacks != null) {
            callbacks.stop();
        }
        receiver.stop(0);
        proxy.close();
        contextCallbacks.start();
    }

    @Test
    void anAnswerThatCouldNotBeRecordedDuringADatabaseOutageIsRecordedWhenTheDatabaseIsBack() {
        startCallbacksThroughTheProxy(Duration.ofMinutes(10));
        String guid = completedWithCallback();
        awaitTheFirstAnswerUnrecorded();

        proxy.restore();

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(reads.find(guid)).hasValueSatisfying(
                task -> {
                    assertThat(task.state()).as("the 503 recorded once PostgreSQL is back, not after resolving-timeout")
                            .isEqualTo(TaskState.COMPLETED);
                    assertThat(task.callback().attempts()).isEqualTo(1);
                    assertThat(task.callback().lastStatus()).isEqualTo(503);
                }));
        clock.advance(Duration.ofSeconds(2)); // past the first back-off (1 s)
        await().atMost(Duration.ofSeconds(20)).until(() -> reads.find(guid).isEmpty());
        assertThat(bodies).as("the first attempt and the retry that was delivered").hasSize(2);
        assertThat(bodies.get(1).get("callback_attempts").asInt()).isEqualTo(1);
    }

    @Test
    void anAnswerWhoseAttemptTookTheTaskLongerThanResolvingTimeoutAgoIsNeverRecorded() {
        startCallbacksThroughTheProxy(Duration.ofMinutes(1));
        String guid = completedWithCallback();
        awaitTheFirstAnswerUnrecorded();
        clock.advance(Duration.ofSeconds(61)); // the pass could hand the task back now, and another attempt take it

        int connectedWhenBack = connected.get();
        proxy.restore();

        // two rounds' uses of the database: the first round would have recorded the answer first
        await().atMost(Duration.ofSeconds(20)).until(() -> connected.get() >= connectedWhenBack + 2);
        assertThat(reads.find(guid)).hasValueSatisfying(task -> {
            assertThat(task.state()).isEqualTo(TaskState.RESOLVING);
            assertThat(task.callback().attempts()).as("the 503 was dropped, not recorded").isZero();
        });
        clock.advance(Duration.ofMinutes(2)); // past the context's resolving-timeout: its pass hands the task back
        await().atMost(Duration.ofSeconds(20)).until(() -> reads.find(guid).isEmpty());
        assertThat(bodies).as("the first attempt and the one after the hand-back").hasSize(2);
        assertThat(bodies.get(1).get("callback_attempts").asInt()).isZero();
    }

    private void awaitTheFirstAnswerUnrecorded() {
        await().atMost(Duration.ofSeconds(20)).untilTrue(answeredUnavailable);
        int refusedWhenAnswered = refused.get();
        // rounds every 200 ms: of three refused uses since the answer, at least one was the round recording it
        await().atMost(Duration.ofSeconds(20)).until(() -> refused.get() >= refusedWhenAnswered + 3);
    }

    /** Callbacks of their own, which reach PostgreSQL through the proxy only and are always the leader. */
    private void startCallbacksThroughTheProxy(Duration resolvingTimeout) {
        URI database = URI.create(databaseUrl.substring("jdbc:".length()));
        DataSource throughProxy = counted("jdbc:postgresql://" + InetAddress.getLoopbackAddress()
                .getHostAddress() + ":" + proxy.port() + database.getRawPath()
                + (database.getRawQuery() == null ? "" : "?" + database.getRawQuery()));
        JdbcTemplate jdbc = new JdbcTemplate(throughProxy);
        TaskLifecycle lifecycle = TaskLifecycle.create(new TransactionTemplate(new DataSourceTransactionManager(
                throughProxy)), jdbc, new Outbox(jdbc, clock, new OutboxSignal()), clock, UUID::randomUUID, 3,
                Duration.ofHours(24));
        callbacks = new CompletionCallbacks(new TaskReads(jdbc), lifecycle, () -> true, settings(resolvingTimeout),
                clock, new SimpleMeterRegistry());
        callbacks.start();
    }

    /** The database through the proxy, one connection per use (no pool to wait on), counting the uses. */
    private DataSource counted(String url) {
        return new DriverManagerDataSource(url, username, password) {
            @Override
            protected Connection getConnectionFromDriver(Properties props) throws SQLException {
                try {
                    Connection connection = super.getConnectionFromDriver(props);
                    connected.incrementAndGet();
                    return connection;
                } catch (SQLException e) {
                    refused.incrementAndGet();
                    throw e;
                }
            }
        };
    }

    private static TaskProperties settings(Duration resolvingTimeout) {
        return new TaskProperties(Duration.ofSeconds(30), 3, 500, Duration.ofMinutes(30), resolvingTimeout,
                Duration.ofMinutes(2), Duration.ofMillis(200), Duration.ofSeconds(10), Duration.ofMinutes(15), 4, 10,
                Duration.ofSeconds(1), Duration.ofMinutes(1));
    }

    /** A task that ran on a live cell and completed, its callback due at once; through the context's own lifecycle. */
    private String completedWithCallback() {
        String callbackUrl = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/done";
        String cell = "cell-" + UUID.randomUUID();
        cells.heartbeat(new CellRegistration(cell, "z1", "10.0.0.1", new Resources(1024, 1024, 10),
                List.of("preloaded:host"), List.of(), List.of()), Duration.ofMinutes(1));
        String guid = "task-" + UUID.randomUUID();
        tasks.submit(new TaskDefinition(guid, "it", "preloaded:host",
                new Action(new RunAction("true", List.of(), null, List.of(), null)), List.of(), 16, 16, 0, 0,
                List.of(), null, callbackUrl, null, null, null), TEST);
        UUID epoch = reads.find(guid).orElseThrow().modificationTag().epoch();
        tasks.place(UUID.randomUUID(), Map.of(guid, cell), Actor.service("auctioneer"));
        tasks.start(Map.of(guid, new TaskStart(cell, epoch)), TEST);
        tasks.complete(Map.of(guid, TaskCompletion.succeeded(cell, "42")), TEST);
        return guid;
    }
}
