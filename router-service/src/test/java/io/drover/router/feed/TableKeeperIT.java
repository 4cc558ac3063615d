package io.drover.router.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.json.Json;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.RunAction;
import io.drover.model.lrp.StartedInstance;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.Topics;
import io.drover.router.RouterApplication;
import io.drover.router.table.Backend;
import io.drover.router.table.HostRoute;
import io.drover.test.WithDroverInfrastructure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;

/**
 * The router's table against the real read model and the real lifecycle topic: the events of a rebuild's past,
 * delivered after it (a feed seconds behind, or a relay that sends a batch again), put nothing back.
 */
@SpringBootTest(classes = RouterApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"management.server.port=0", "drover.outbox.relay-enabled=true",
                "drover.router.check-interval=1h"})
@WithDroverInfrastructure
class TableKeeperIT {

    static final Actor TEST = Actor.service("test");

    @Autowired
    TableKeeper keeper;
    @Autowired
    ActualLrpLifecycle actuals;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    CellPresence presence;
    @Value("${spring.kafka.bootstrap-servers}")
    String kafka;

    @Test
    void eventsARebuildsReadSawPutNothingBackWhenTheyArriveAfterIt() {
        String guid = "kept-" + UUID.randomUUID();
        String host = guid + ".example.com";
        desire(guid, "{\"cf-router\":[{\"hostnames\":[\"" + host + "\"],\"port\":8080}]}");
        String cell = "cell-" + UUID.randomUUID();
        presence.heartbeat(new CellRegistration(cell, "z1", "10.0.0.1", new Resources(4096, 4096, 10),
                List.of("preloaded:host"), List.of(), List.of()), Duration.ofSeconds(60));
        String zero = run(guid, 0, cell);
        String one = run(guid, 1, cell);
        await().atMost(Duration.ofSeconds(30)).until(() -> instances(host).size() == 2);

        // the instance of index 1 stops on its own: its cell removes its record
        actuals.remove(ActualLrpKey.of(guid, 1), InstanceOwner.of(one, cell), "exited", Actor.cell(cell));
        await().atMost(Duration.ofSeconds(30)).until(() -> instances(host).equals(List.of(zero)));
        List<ConsumerRecord<String, byte[]>> past = eventsOfIndexBeforeItsRemoval(guid, 1);
        assertThat(past).as("its creation, claim and start").hasSize(3);

        keeper.rebuild("test");
        assertThat(instances(host)).containsExactly(zero);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka, ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class, ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class))) {
            for (ConsumerRecord<String, byte[]> event : past) {
                producer.send(new ProducerRecord<>(event.topic(), null, event.timestamp(), event.key(), event.value(),
                        event.headers()));
            }
        }
        String two = run(guid, 2, cell); // after the late events on the LRP's partition: when it shows, they were read
        await().atMost(Duration.ofSeconds(30)).until(() -> instances(host).contains(two));
        assertThat(instances(host)).as("index 1's late events put nothing back").containsExactlyInAnyOrder(zero, two);
    }

    /** The lifecycle records of one index of {@code guid}, from the topic, up to that index's removal. */
    private List<ConsumerRecord<String, byte[]>> eventsOfIndexBeforeItsRemoval(String guid, int index) {
        List<ConsumerRecord<String, byte[]>> before = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka, ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class, ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class))) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.LIFECYCLE_EVENTS).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            boolean[] removed = {false};
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    JsonNode event = guid.equals(record.key()) ? Json.MAPPER.readTree(record.value()) : null;
                    if (removed[0] || event == null || !event.path("type").asString().startsWith("actual_lrp")) {
                        continue;
                    }
                    JsonNode row = event.path("after").isObject() ? event.path("after") : event.path("before");
                    if (row.path("index").asInt() == index) {
                        if (LifecycleEvent.ACTUAL_LRP_REMOVED.equals(event.path("type").asString())) {
                            removed[0] = true;
                        } else {
                            before.add(record);
                        }
                    }
                }
                return removed[0];
            });
        }
        return before;
    }

    private List<String> instances(String host) {
        HostRoute route = keeper.table().route(host);
        return route == null ? List.of() : route.backends().stream().map(Backend::instanceGuid).toList();
    }

    private String run(String guid, int index, String cell) {
        String instance = "ig-" + UUID.randomUUID();
        InstanceOwner owner = InstanceOwner.of(instance, cell);
        ActualLrpKey key = ActualLrpKey.of(guid, index);
        actuals.claim(key, owner, Actor.cell(cell));
        actuals.start(new StartedInstance(key, "kept", owner, new NetInfo("10.0.0.1",
                List.of(new NetInfo.PortMapping(8080, 61000 + index)))), Actor.cell(cell));
        return instance;
    }

    private void desire(String guid, String routesJson) {
        desired.desire(new DesiredLrpDefinition(guid, "kept", "preloaded:host", 3,
                new Action(new RunAction("sleep", List.of("100"), null, List.of(), null)), null, null, 0, List.of(),
                List.of(8080), 64, 64, 0, 0, List.of(), routesJson, null, null, null), TEST);
    }
}
