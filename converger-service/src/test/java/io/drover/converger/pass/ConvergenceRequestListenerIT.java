package io.drover.converger.pass;

import static io.drover.converger.pass.LrpFixtures.guid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.converger.ConvergerIntegrationTest;
import io.drover.model.cell.CellPresence;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.DesiredLrpUpdate;
import io.drover.model.messaging.ConvergenceRequested;
import io.drover.model.messaging.LifecycleEvent;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.kafka.core.ConsumerFactory;

/**
 * A change that asks for a pass reaches the converger through real PostgreSQL and Kafka: the lifecycle's transaction,
 * its outbox row, the relay, {@code drover.convergence.requests}, the listener.
 */
@ConvergerIntegrationTest
class ConvergenceRequestListenerIT {

    @Autowired
    ConsumerFactory<?, ?> consumers;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    ActualLrpLifecycle actual;
    @Autowired
    CellPresence cells;
    @Value("${spring.kafka.bootstrap-servers}")
    String kafka;

    @Test
    void aScaleIsHeardAsOneRequestAfterTheDesireWhichAskedNothing() {
        AtomicInteger heard = new AtomicInteger();
        ConvergenceRequestListener listener = new ConvergenceRequestListener(consumers, heard::incrementAndGet);
        try (TopicProbe<ConvergenceRequested> topic = TopicProbe.convergenceRequests(kafka)) {
            listener.start();
            await().atMost(Duration.ofSeconds(30)).until(listener::isReady);
            String guid = guid("asks");
            new LrpFixtures(desired, actual, cells).desire(guid, 2);
            desired.update(guid, new DesiredLrpUpdate(1, null, null), List.of(), Actor.service("test"));

            await().atMost(Duration.ofSeconds(30)).until(() -> heard.get() > 0);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                    topic.received(r -> r.processGuid().equals(guid)))
                    .as("the topic has one partition: the desire's request, had there been one, came first")
                    .singleElement().extracting(ConvergenceRequested::reason)
                    .isEqualTo(LifecycleEvent.DESIRED_LRP_CHANGED));
        } finally {
            listener.stop();
        }
    }
}
