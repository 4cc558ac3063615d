package io.drover.converger.pass;

import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.TopicReader;
import io.drover.model.messaging.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.ConsumerFactory;

/**
 * Hears desired LRP changes and removals, and removed actual LRPs (a restarted or stopped instance whose index may still
 * be desired), on the lifecycle topic and asks the loop for a pass. A new desired LRP does not ask: its desire created
 * every instance and the auction request in the same transaction (as Diego's BBS does), so a pass would find nothing
 * to do, and a burst of desires would cost a pass over every instance of the cluster every few seconds. Every converger
 * (leader or standby) reads the whole topic from the end, with nothing committed: a missed event only delays
 * convergence to the next periodic pass, so nothing here needs to be durable. It looks only at each record's event
 * type header, never at the event itself.
 */
class DesiredLrpChangeListener implements SmartLifecycle {

    private static final String DESIRED_LRP_EVENT = "desired_lrp_";

    private final ConvergenceLoop loop;
    private final TopicReader reader;
    private volatile boolean running;

    DesiredLrpChangeListener(ConsumerFactory<?, ?> consumers, ConvergenceLoop loop) {
        this.loop = loop;
        this.reader = new TopicReader(consumers, new TopicReader.Settings("converger-lifecycle-listener", null,
                TopicReader.StartAt.LATEST, null, 5_000, Duration.ofMillis(500), 0),
                TopicReader.allOf(Topics.LIFECYCLE_EVENTS), this::onLifecycleEvents, TopicReader.AfterPoll.NOTHING);
    }

    void onLifecycleEvents(List<ConsumerRecord<String, byte[]>> records) {
        for (ConsumerRecord<String, byte[]> record : records) {
            Header type = record.headers().lastHeader(Topics.EVENT_TYPE_HEADER);
            if (type != null && asksForAPass(new String(type.value(), StandardCharsets.UTF_8))) {
                loop.desiredLrpChanged();
                return;
            }
        }
    }

    static boolean asksForAPass(String type) {
        return (type.startsWith(DESIRED_LRP_EVENT) && !type.equals(LifecycleEvent.DESIRED_LRP_CREATED))
                || type.equals(LifecycleEvent.ACTUAL_LRP_REMOVED);
    }

    @Override
    public void start() {
        running = true;
        reader.start();
    }

    @Override
    public void stop() {
        running = false;
        reader.close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
