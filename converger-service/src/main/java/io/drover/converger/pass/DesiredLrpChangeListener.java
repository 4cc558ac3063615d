package io.drover.converger.pass;

import io.drover.model.json.Json;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;

/**
 * Hears desired LRP changes, and removed actual LRPs (a restarted or stopped instance whose index may still be
 * desired), on the lifecycle topic and asks the loop for a pass. Every converger (leader or standby)
 * reads the whole topic with a group of its own, from the latest offset: a missed event only delays convergence to
 * the next periodic pass, so nothing here needs to be durable.
 */
class DesiredLrpChangeListener {

    private static final Logger log = LoggerFactory.getLogger(DesiredLrpChangeListener.class);
    private static final String DESIRED_LRP_EVENT = "desired_lrp_";
    private static final String ACTUAL_LRP_REMOVED = LifecycleEvent.ACTUAL_LRP_REMOVED;

    private final ConvergenceLoop loop;

    DesiredLrpChangeListener(ConvergenceLoop loop) {
        this.loop = loop;
    }

    @KafkaListener(topics = Topics.LIFECYCLE_EVENTS, groupId = "drover-converger-${random.uuid}",
            properties = "auto.offset.reset=latest")
    void onLifecycleEvent(ConsumerRecord<String, String> record) {
        if (record.value() == null
                || !(record.value().contains(DESIRED_LRP_EVENT) || record.value().contains(ACTUAL_LRP_REMOVED))) {
            return;
        }
        try {
            EventType event = Json.read(record.value(), EventType.class);
            if (event.type() != null
                    && (event.type().startsWith(DESIRED_LRP_EVENT) || event.type().equals(ACTUAL_LRP_REMOVED))) {
                loop.desiredLrpChanged();
            }
        } catch (RuntimeException e) {
            log.debug("lifecycle-event-unreadable offset={} cause={}", record.offset(), e.toString());
        }
    }

    /** The one field of a lifecycle event this listener needs. */
    record EventType(String type) {
    }
}
