package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.messaging.TopicReader;
import io.drover.test.WithDroverInfrastructure;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;

/** Drover's one way to consume Kafka, on the JVM's real broker: where it starts, what it commits, retries, pauses. */
@SpringBootTest
@WithDroverInfrastructure
class TopicReaderIT {

    @Autowired
    ConsumerFactory<?, ?> consumers;
    @Autowired
    KafkaTemplate<String, String> producer;
    @Autowired
    KafkaAdmin admin;

    String topic;
    List<String> seen;

    @BeforeEach
    void newTopic() throws Exception {
        topic = "reader-" + UUID.randomUUID();
        try (Admin client = Admin.create(admin.getConfigurationProperties())) {
            client.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        }
        seen = Collections.synchronizedList(new ArrayList<>());
    }

    @Test
    void aLiveReaderSeesOnlyWhatIsWrittenAfterItStarted() throws Exception {
        send("before");
        TopicReader reader = reader(null, TopicReader.StartAt.LATEST, null, records -> record(records));
        reader.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(reader::positioned);
            send("after");
            await().atMost(Duration.ofSeconds(30)).until(() -> seen.contains("after"));
            assertThat(seen).containsExactly("after");
        } finally {
            reader.close();
        }
    }

    /**
     * The compose cluster's services start together, and a service's reader may ask for a topic's partitions before
     * another service created it (or before the broker's metadata has it): the converger's reader of convergence
     * requests then sat on no partition for good, its every poll failing ("not subscribed to any topics or assigned any
     * partitions"), and no request was ever heard (drover-verify --compose, docs/verification.md).
     */
    @Test
    void aReaderOfEveryPartitionOfATopicNotCreatedYetReadsItOnceItIsCreated() throws Exception {
        String later = "reader-later-" + UUID.randomUUID();
        // as the compose broker does: a topic is created by the services' admins, never by a client asking for it
        Map<String, Object> noAutoCreation = new HashMap<>(consumers.getConfigurationProperties());
        noAutoCreation.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        TopicReader reader = new TopicReader(new DefaultKafkaConsumerFactory<>(noAutoCreation),
                new TopicReader.Settings("test-later", null,
                TopicReader.StartAt.LATEST, null, 100, Duration.ofMillis(200), 0), TopicReader.allOf(later),
                this::record, TopicReader.AfterPoll.NOTHING);
        reader.start();
        try {
            Thread.sleep(1500); // the reader has asked for the topic's partitions and found none
            try (Admin client = Admin.create(admin.getConfigurationProperties())) {
                client.createTopics(List.of(new NewTopic(later, 2, (short) 1))).all().get();
            }
            await().atMost(Duration.ofSeconds(30)).until(reader::positioned);
            producer.send(new ProducerRecord<>(later, "k", "after")).get();
            await().atMost(Duration.ofSeconds(30)).until(() -> seen.contains("after"));
        } finally {
            reader.close();
        }
    }

    @Test
    void aGroupResumesAfterTheLastHandledBatchAndAFailingBatchIsHandedOverAgain() throws Exception {
        String group = "reader-group-" + UUID.randomUUID();
        AtomicInteger failures = new AtomicInteger(1);
        TopicReader first = reader(group, TopicReader.StartAt.COMMITTED_OR_EARLIEST, null, records -> {
            if (failures.getAndDecrement() > 0) {
                throw new IllegalStateException("handler failed once");
            }
            record(records);
        });
        send("one");
        first.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> seen.contains("one"));
        } finally {
            first.close();
        }
        assertThat(seen).containsExactly("one");
        send("two");
        TopicReader second = reader(group, TopicReader.StartAt.COMMITTED_OR_EARLIEST, null, this::record);
        second.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> seen.contains("two"));
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> seen.size() == 2);
            assertThat(seen).as("nothing handled twice once committed").containsExactly("one", "two");
        } finally {
            second.close();
        }
    }

    @Test
    void aNewGroupStartsAtTheFirstRecordSinceItsTimeAndAnOldOneAtItsCommit() throws Exception {
        send("old");
        Instant since = Instant.now().plusMillis(1);
        await().until(() -> Instant.now().isAfter(since));
        send("new");
        TopicReader reader = reader("since-" + UUID.randomUUID(), TopicReader.StartAt.COMMITTED_OR_SINCE, since,
                this::record);
        reader.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> seen.contains("new"));
            assertThat(seen).doesNotContain("old");
        } finally {
            reader.close();
        }
    }

    @Test
    void throughIsTheWriteTimeOfTheNewestHandledRecordWhileRecordsWaitAndThePollOnceCaughtUp() throws Exception {
        Instant written = Instant.now().minusSeconds(60).truncatedTo(ChronoUnit.MILLIS);
        send(0, written, "a");
        send(0, written.plusSeconds(30), "b");
        CountDownLatch release = new CountDownLatch(1);
        TopicReader reader = new TopicReader(consumers, new TopicReader.Settings("test-reader",
                "through-" + UUID.randomUUID(), TopicReader.StartAt.COMMITTED_OR_EARLIEST, null, 1,
                Duration.ofMillis(200), 3), c -> List.of(new TopicPartition(topic, 0)), records -> {
                    record(records);
                    if (seen.contains("b")) {
                        await().atMost(Duration.ofSeconds(60)).until(() -> release.getCount() == 0);
                    }
                }, TopicReader.AfterPoll.NOTHING).trackingThrough();
        assertThat(reader.through()).as("nothing known before the first poll").isNull();
        Instant started = Instant.now();
        reader.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> seen.contains("b"));
            assertThat(reader.through()).as("'a' handled, 'b' in hand: through the write time of 'a'")
                    .isEqualTo(written);
            release.countDown();
            await().atMost(Duration.ofSeconds(30)).until(() -> reader.through() != null
                    && !reader.through().isBefore(started));
        } finally {
            reader.close();
        }
    }

    private TopicReader reader(String group, TopicReader.StartAt startAt, Instant since, TopicReader.Handler handler) {
        return new TopicReader(consumers, new TopicReader.Settings("test-reader", group, startAt, since, 100,
                Duration.ofMillis(200), 3), c -> List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1)),
                handler, TopicReader.AfterPoll.NOTHING);
    }

    private void send(int partition, Instant written, String value) throws Exception {
        producer.send(new ProducerRecord<>(topic, partition, written.toEpochMilli(), "k", value)).get();
    }

    private void record(List<ConsumerRecord<String, byte[]>> records) {
        records.forEach(r -> seen.add(new String(r.value(), StandardCharsets.UTF_8)));
    }

    private void send(String value) throws Exception {
        producer.send(new ProducerRecord<>(topic, "k", value)).get();
    }

}
