package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.config.DroverModelAutoConfiguration;
import io.drover.model.json.Json;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.StartedInstance;
import io.drover.model.messaging.EventPosition;
import io.drover.model.messaging.KafkaTopicsProperties;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.messaging.Outbox;
import io.drover.model.messaging.OutboxMessage;
import io.drover.model.messaging.OutboxRelay;
import io.drover.model.messaging.PipelineProgress;
import io.drover.model.messaging.Topics;
import io.drover.test.CuttableKafka;
import io.drover.test.MutableClock;
import io.drover.test.WithDroverInfrastructure;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The outbox survives a broker outage (SPEC 4, SPEC 12): while the broker is unreachable lifecycle operations still
 * commit and their messages wait in the outbox; once it is back, every message arrives, a repeat only ever carries the
 * id of the message it repeats, and each key's messages arrive in the order they were written. The relay's producer
 * talks to a broker of its own behind a proxy this test cuts, so the JVM's shared broker is never disturbed.
 */
@SpringBootTest(properties = {
        "drover.outbox.send-timeout=2s",
        "drover.outbox.max-backoff=1s",
        "drover.outbox.held-back-warning=1s",
        "spring.application.name=relay-under-test" })
@WithDroverInfrastructure
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
class OutboxRelayIT {

    static CuttableKafka kafka;

    @DynamicPropertySource
    static void relayThroughACuttableBroker(DynamicPropertyRegistry registry) {
        KafkaTopicsProperties p = new KafkaTopicsProperties(8, 32, 8, (short) 1);
        kafka = CuttableKafka.start(
                DroverModelAutoConfiguration.topic(Topics.START_REQUESTS, p.startRequestPartitions(),
                        p.replicationFactor()),
                DroverModelAutoConfiguration.topic(Topics.AUCTION_RESULTS, p.cellPartitions(), p.replicationFactor()),
                DroverModelAutoConfiguration.topic(Topics.STOP_REQUESTS, p.cellPartitions(), p.replicationFactor()),
                DroverModelAutoConfiguration.topic(Topics.LIFECYCLE_EVENTS, p.lifecyclePartitions(),
                        p.replicationFactor()));
        registry.add("spring.kafka.producer.bootstrap-servers", kafka::bootstrapServers);
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Autowired
    ActualLrpLifecycle lifecycle;
    @Autowired
    ActualLrpRepository actuals;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    MutableClock clock;
    @Autowired
    MeterRegistry meters;
    @Autowired
    DataSource dataSource;
    @Autowired
    Outbox outbox;
    @Autowired
    TransactionTemplate tx;
    @Autowired
    OutboxRelay relay;

    @Test
    void messagesWrittenWhileTheBrokerIsUnreachableArriveInKeyOrderOnceItIsBack() {
        String guid = "outage-" + UUID.randomUUID();
        Actor rep = Actor.cell("cell-a");
        lifecycle.createUnclaimed(guid, "d1", List.of(0, 1, 2), "desired", Actor.service("receptor"));
        await().atMost(Duration.ofSeconds(30)).until(() -> unsent() == 0);

        kafka.cut();
        lifecycle.place(UUID.randomUUID(), Map.of(key(guid, 0), "cell-a", key(guid, 1), "cell-a", key(guid, 2),
                "cell-b"), Actor.service("auctioneer"));
        for (int index = 0; index < 3; index++) {
            InstanceOwner owner = InstanceOwner.of("ig-" + index, index == 2 ? "cell-b" : "cell-a");
            lifecycle.claim(key(guid, index), owner, rep);
            lifecycle.start(new StartedInstance(key(guid, index), "d1", owner, new NetInfo("10.0.0.1", List.of())),
                    rep);
        }
        lifecycle.crash(key(guid, 0), InstanceOwner.of("ig-0", "cell-a"), "exited with code 1", rep);
        lifecycle.unclaim(List.of(key(guid, 1)), "cell lost", Actor.service("converger"));

        assertThat(actuals.findById(key(guid, 2)).orElseThrow().state()).as("committed while Kafka is down")
                .isEqualTo(ActualLrpState.RUNNING);
        int waiting = unsent();
        assertThat(waiting).isGreaterThan(10);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> unsent() == waiting);
        Instant oldestWaiting = clock.instant();
        clock.advance(Duration.ofSeconds(42));
        assertThat(lagSeconds()).as("age of the oldest unsent row").isGreaterThan(41.9);
        PipelineProgress progress = new PipelineProgress(jdbc, clock, Duration.ZERO);
        assertThat(progress.relayedThrough(clock.instant())).as("the relay is through its oldest unsent row")
                .isBeforeOrEqualTo(oldestWaiting.plusNanos(500)) // PostgreSQL rounds to the microsecond
                .isAfter(oldestWaiting.minusSeconds(5));

        kafka.restore();
        await().atMost(Duration.ofSeconds(30)).until(() -> unsent() == 0);
        assertThat(lagSeconds()).isZero();
        assertThat(progress.relayedThrough(clock.instant())).as("nothing waits").isEqualTo(clock.instant());

        Map<String, Row> written = outbox();
        List<Row> received = consumeUntilEveryIdArrived(written.keySet());
        for (Row message : received) {
            assertThat(written).as("a message nobody wrote").containsKey(message.id());
            assertThat(message).as("a repeat carries exactly the message it repeats, stamped when its row was "
                    + "written (not when the broker came back), with its type (and an event its position) in headers")
                    .isEqualTo(written.get(message.id()));
        }
        assertThat(firstArrivalsByKey(received)).as("per-key order").isEqualTo(byKey(written.values()));
        assertThat(received).filteredOn(r -> r.topic().equals(Topics.AUCTION_RESULTS) && r.payload().contains(guid))
                .extracting(Row::type).as("commands carry their message type").isNotEmpty()
                .containsOnly(LrpsPlaced.TYPE);
    }

    @Test
    void aStageReportsWhereItStandsAtMostOnceASecondAndOnlyWhenItMoved() {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        PipelineProgress progress = new PipelineProgress(jdbc, clock, Duration.ofSeconds(1));
        String stage = "test-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(progress.reported(stage)).as("never reported").isNull();

        progress.report(stage, null);
        assertThat(progress.reported(stage)).as("a stage that cannot say writes nothing").isNull();
        progress.report(stage, now.minusSeconds(40));
        progress.report(stage, now.minusSeconds(20));
        assertThat(progress.reported(stage)).as("the second report came within a second of the first")
                .isEqualTo(now.minusSeconds(40));
        clock.advance(Duration.ofSeconds(1));
        progress.report(stage, now.minusSeconds(20));
        assertThat(progress.reported(stage)).isEqualTo(now.minusSeconds(20));
    }

    @Test
    void aRelayWaitsWhileAnotherOneIsSending() throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> unsent() == 0);
        try (Connection otherRelay = dataSource.getConnection()) {
            otherRelay.setAutoCommit(false);
            try (PreparedStatement lock = otherRelay.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                lock.setLong(1, OutboxRelay.RELAY_LOCK);
                lock.execute();
            }
            lifecycle.createUnclaimed("standby-" + UUID.randomUUID(), "d1", List.of(0), "desired",
                    Actor.service("receptor"));
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> unsent() == 2);
            otherRelay.rollback();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> unsent() == 0);
    }

    @Test
    void rowsCommittedAfterAnOpenTransactionBeganWaitForItAndTheRelaySaysWhichOne(CapturedOutput output)
            throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> unsent() == 0);
        int pid;
        String xid;
        try (Connection open = dataSource.getConnection()) {
            open.setAutoCommit(false);
            try (PreparedStatement begin = open.prepareStatement(
                    "SELECT pg_backend_pid(), pg_current_xact_id()::text")) {
                ResultSet rs = begin.executeQuery();
                rs.next();
                pid = rs.getInt(1);
                xid = rs.getString(2);
            }
            lifecycle.createUnclaimed("held-" + UUID.randomUUID(), "d1", List.of(0), "desired",
                    Actor.service("receptor"));
            // committed, but that older transaction could still commit rows before them: not relayed while it runs
            await().atMost(Duration.ofSeconds(30)).until(() -> output.getAll().contains(
                    "outbox-relay-held-back xid=" + xid + " "));
            assertThat(unsent()).isEqualTo(2);
            // the connection names its service (DroverDefaults), so the warning says whose transaction it is
            assertThat(output.getAll()).contains("oldest_transaction: pid=" + pid + " application=relay-under-test ");
            open.rollback();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> unsent() == 0);
        await().atMost(Duration.ofSeconds(10)).until(() -> output.getAll().contains(
                "outbox-relay-held-back-ended xid=" + xid + " "));
    }

    @Test
    void rowsHeldBackByOneShortTransactionAfterAnotherForLongerThanTheWarningAreNotWarnedAbout(CapturedOutput output)
            throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> unsent() == 0);
        // a steady load's pattern, slowed down: at every moment some committed row waits behind a running transaction,
        // but each transaction runs a fraction of the warning's second before the next one takes its place
        long heldSince = System.nanoTime();
        Connection older = openTransactionWithAnId();
        try {
            while (System.nanoTime() - heldSince < Duration.ofSeconds(3).toNanos()) {
                Connection younger = openTransactionWithAnId();
                // held back behind `older` and, once it ends, behind `younger`: both began before this commit
                lifecycle.createUnclaimed("chain-" + UUID.randomUUID(), "d1", List.of(0), "desired",
                        Actor.service("receptor"));
                assertThat(unsent()).isPositive();
                Thread.sleep(100); // the relay looks every 5 ms meanwhile; each transaction lives about this long
                older.rollback();
                older.close();
                older = younger;
            }
        } finally {
            older.rollback();
            older.close();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> unsent() == 0);
        assertThat(output.getAll()).doesNotContain("outbox-relay-held-back");
    }

    /** A transaction that holds a transaction id (as every writing one does), left open. */
    private Connection openTransactionWithAnId() throws Exception {
        Connection connection = dataSource.getConnection();
        connection.setAutoCommit(false);
        try (PreparedStatement begin = connection.prepareStatement("SELECT pg_current_xact_id()")) {
            begin.executeQuery().close();
        }
        return connection;
    }

    @Test
    void anEventOfSeveralMebibytesIsRelayedAndDoesNotHoldUpTheMessagesAfterIt() {
        await().atMost(Duration.ofSeconds(30)).until(() -> unsent() == 0);
        String guid = "large-" + UUID.randomUUID();
        // what a 1 MiB desire can become: two snapshots of it, with routes escaped into a string
        var big = Json.toTree(Map.of("routes", "\"".repeat(1024 * 1024)));
        String bigId = UUID.randomUUID().toString();
        String smallId = UUID.randomUUID().toString();
        tx.executeWithoutResult(status -> outbox.append(List.of(
                OutboxMessage.of(Topics.LIFECYCLE_EVENTS, guid, new LifecycleEvent(UUID.fromString(bigId),
                        LifecycleEvent.DESIRED_LRP_CHANGED, big, big, clock.instant())),
                OutboxMessage.of(Topics.LIFECYCLE_EVENTS, guid, new LifecycleEvent(UUID.fromString(smallId),
                        LifecycleEvent.DESIRED_LRP_REMOVED, Json.toTree(Map.of("process_guid", guid)), null,
                        clock.instant())))));
        assertThat(jdbc.queryForObject("SELECT max(length(payload)) FROM outbox WHERE message_key = ?", Integer.class,
                guid))
                .as("the test's event is over Kafka's default limit").isGreaterThan(4 * 1024 * 1024);

        await().atMost(Duration.ofSeconds(30)).until(() -> unsent() == 0);
        assertThat(consumeUntilEveryIdArrived(Set.of(bigId, smallId))).extracting(Row::id).contains(bigId, smallId);
    }

    /** Every message written: commands in the outbox, lifecycle events in their audit rows. */
    private Map<String, Row> outbox() {
        Map<String, Row> rows = new LinkedHashMap<>();
        jdbc.query("""
                SELECT topic, message_key, convert_from(payload, 'UTF8'), written, type, event, tx_id::text, id FROM (
                    SELECT tx_id, id, topic, message_key, payload, created_at AS written, message_type AS type,
                    false AS event FROM outbox
                    UNION ALL SELECT tx_id, id, 'drover.lifecycle.events', process_guid, payload, at, event_type, true
                    FROM lrp_events WHERE payload IS NOT NULL) m ORDER BY tx_id, id""", rs -> {
            Row row = Row.of(rs.getString(1), rs.getString(2), rs.getString(3),
                    rs.getTimestamp(4).toInstant().toEpochMilli(), rs.getString(5),
                    rs.getBoolean(6) ? EventPosition.of(rs.getString(7), rs.getLong(8)).text() : null);
            rows.put(row.id(), row);
        });
        return rows;
    }

    private List<Row> consumeUntilEveryIdArrived(Set<String> ids) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        List<Row> received = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : List.of(Topics.START_REQUESTS, Topics.AUCTION_RESULTS, Topics.STOP_REQUESTS,
                    Topics.LIFECYCLE_EVENTS)) {
                consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    Header type = r.headers().lastHeader(Topics.LIFECYCLE_EVENTS.equals(r.topic())
                            ? Topics.EVENT_TYPE_HEADER : Topics.MESSAGE_TYPE_HEADER);
                    Header position = r.headers().lastHeader(Topics.EVENT_POSITION_HEADER);
                    received.add(Row.of(r.topic(), r.key(), r.value(), r.timestamp(),
                            type == null ? null : new String(type.value(), StandardCharsets.UTF_8),
                            position == null ? null : new String(position.value(), StandardCharsets.UTF_8)));
                }
                return received.stream().map(Row::id).collect(java.util.stream.Collectors.toSet()).containsAll(ids);
            });
        }
        return received;
    }

    /** For each topic and key, the ids in the order they first arrived. */
    private static Map<String, List<String>> firstArrivalsByKey(List<Row> received) {
        Map<String, Set<String>> firsts = new HashMap<>();
        received.forEach(r -> firsts.computeIfAbsent(r.topic() + "/" + r.key(), k -> new LinkedHashSet<>()).add(r.id()));
        Map<String, List<String>> result = new HashMap<>();
        firsts.forEach((k, v) -> result.put(k, List.copyOf(v)));
        return result;
    }

    private static Map<String, List<String>> byKey(Iterable<Row> written) {
        Map<String, List<String>> result = new HashMap<>();
        written.forEach(r -> result.computeIfAbsent(r.topic() + "/" + r.key(), k -> new ArrayList<>()).add(r.id()));
        return result;
    }

    private int unsent() {
        return (int) relay.backlog();
    }

    private double lagSeconds() {
        return meters.get("drover.outbox.lag.seconds").gauge().value();
    }

    private static ActualLrpKey key(String guid, int index) {
        return ActualLrpKey.of(guid, index);
    }

    /**
     * One message as written to the outbox or read from Kafka, identified by its message_id or event_id; {@code
     * writtenAt} is its row's write time, or its record's timestamp (epoch milliseconds); {@code position} an event's
     * place in the stream (its row's, or its record's header).
     */
    record Row(String topic, String key, String id, String payload, long writtenAt, String type, String position) {

        static Row of(String topic, String key, String payload, long writtenAt, String type, String position) {
            var json = Json.tree(payload);
            String id = json.has("message_id") ? json.get("message_id").asString() : json.get("event_id").asString();
            return new Row(topic, key, id, payload, writtenAt, type, position);
        }
    }
}
