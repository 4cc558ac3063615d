package io.drover.rep.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.drover.model.json.Json;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.messaging.TaskCancelRequested;
import io.drover.model.messaging.TasksPlaced;
import io.drover.model.messaging.Topics;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;

/**
 * The intake without a broker: each message goes to its cell as the work its type header says (or, without one, its
 * topic's shape before types); and a rep starting while Kafka is unreachable: the intake must neither fail nor hold up
 * the rep's start-up (it used to position itself in its constructor, which threw once the consumer's API timeout
 * passed), and must stop retrying when closed.
 */
class WorkConsumerTest {

    private static final WorkSink NOWHERE = new WorkSink() {
        @Override
        public void placed(List<LrpsPlaced.Placement> placements, Instant placedAt, Runnable done) {
        }

        @Override
        public void stopRequested(LrpStopRequested request, Runnable done) {
        }
    };

    private static final String CELL = "cell-1";
    private static final UUID EPOCH = UUID.fromString("a3e0c9f2-7d4b-4a51-8c33-5b2f0e9d1c77");

    @SuppressWarnings("deprecation")
    static Stream<Arguments> messages() {
        LrpsPlaced instances = new LrpsPlaced(UUID.randomUUID(), CELL, UUID.randomUUID(),
                List.of(new LrpsPlaced.Placement("web", 0, EPOCH, 1)));
        TasksPlaced tasks = new TasksPlaced(UUID.randomUUID(), CELL, UUID.randomUUID(),
                List.of(new TasksPlaced.TaskPlacement("report-7", EPOCH)));
        LrpStopRequested stop = new LrpStopRequested(UUID.randomUUID(), CELL, "web", 0, "ig-1", "scaled down");
        TaskCancelRequested cancel = new TaskCancelRequested(UUID.randomUUID(), CELL, "report-7", "cancelled");
        LrpsPlaced tasksBeforeTypes = new LrpsPlaced(UUID.randomUUID(), CELL, UUID.randomUUID(), List.of(),
                tasks.tasks());
        LrpStopRequested cancelBeforeTypes = new LrpStopRequested(UUID.randomUUID(), CELL, null, 0, null,
                "cancelled", "report-7");
        return Stream.of(
                Arguments.of("an auction result", record(Topics.AUCTION_RESULTS, instances, LrpsPlaced.TYPE),
                        "placed web/0"),
                Arguments.of("a cell's tasks placed", record(Topics.AUCTION_RESULTS, tasks, TasksPlaced.TYPE),
                        "tasks report-7"),
                Arguments.of("a stop request", record(Topics.STOP_REQUESTS, stop, LrpStopRequested.TYPE),
                        "stop ig-1"),
                Arguments.of("a task's cancel", record(Topics.STOP_REQUESTS, cancel, TaskCancelRequested.TYPE),
                        "cancel report-7"),
                Arguments.of("an auction result written before types", record(Topics.AUCTION_RESULTS, instances,
                        null), "placed web/0"),
                Arguments.of("a stop request written before types", record(Topics.STOP_REQUESTS, stop, null),
                        "stop ig-1"),
                Arguments.of("tasks placed before they had a message of their own",
                        record(Topics.AUCTION_RESULTS, tasksBeforeTypes, null), "tasks report-7"),
                Arguments.of("a task's cancel before it had a message of its own",
                        record(Topics.STOP_REQUESTS, cancelBeforeTypes, null), "cancel report-7"),
                Arguments.of("a type of a later version: skipped", record(Topics.AUCTION_RESULTS, tasks,
                        "tasks_placed_v9"), ""),
                Arguments.of("another cell's message sharing the partition", new ConsumerRecord<>(
                        Topics.AUCTION_RESULTS, 0, 0, "cell-2", Json.MAPPER.writeValueAsBytes(instances)), ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void eachMessageGoesToItsCellAsTheWorkItsTypeSays(String name, ConsumerRecord<String, byte[]> record,
            String expected) {
        Recording sink = new Recording();
        WorkConsumer intake = new WorkConsumer(new DefaultKafkaConsumerFactory<>(Map.of()), "drover-rep-test", 32,
                Map.of(CELL, sink), Clock.systemUTC());

        intake.dispatch(record);

        assertThat(String.join(", ", sink.calls)).isEqualTo(expected);
    }

    private static ConsumerRecord<String, byte[]> record(String topic, Object message, String type) {
        ConsumerRecord<String, byte[]> record = new ConsumerRecord<>(topic, 0, 0, CELL,
                Json.MAPPER.writeValueAsBytes(message));
        if (type != null) {
            record.headers().add(Topics.MESSAGE_TYPE_HEADER, type.getBytes(StandardCharsets.UTF_8));
        }
        return record;
    }

    /** Says what it was handed. */
    static final class Recording implements WorkSink {
        final List<String> calls = new ArrayList<>();

        @Override
        public void placed(List<LrpsPlaced.Placement> placements, Instant placedAt, Runnable done) {
            placements.forEach(p -> calls.add("placed " + p.processGuid() + "/" + p.index()));
        }

        @Override
        public void stopRequested(LrpStopRequested request, Runnable done) {
            calls.add("stop " + request.instanceGuid());
        }

        @Override
        public void tasksPlaced(List<TasksPlaced.TaskPlacement> tasks, Runnable done) {
            tasks.forEach(t -> calls.add("tasks " + t.taskGuid()));
        }

        @Override
        public void taskCancelled(String taskGuid, Runnable done) {
            calls.add("cancel " + taskGuid);
        }
    }

    @Test
    void startsWhileTheBrokerIsUnreachableKeepsRetryingAndStopsWhenClosed() throws IOException {
        DefaultKafkaConsumerFactory<String, String> factory = new DefaultKafkaConsumerFactory<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + unusedPort(),
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 500,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class));

        // Generous deadlines: they catch a start or close that waits for the broker (that would be forever), not a
        // slow one. On a loaded machine the JVM's first Kafka consumer alone took more than 5 s to construct.
        WorkConsumer intake = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            WorkConsumer started = new WorkConsumer(factory, "drover-rep-unreachable", 32, Map.of("cell-1", NOWHERE),
                    Clock.systemUTC());
            started.start();
            return started;
        });
        // Each attempt gives up after the consumer's API timeout (500 ms here); the intake keeps trying.
        await().atMost(Duration.ofSeconds(60)).until(() -> intake.positionAttempts() >= 3);
        assertThat(intake.positioned()).isFalse();

        assertTimeoutPreemptively(Duration.ofSeconds(60), intake::close);
    }

    private static int unusedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
