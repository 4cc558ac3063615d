package io.drover.auctioneer.round;

import io.drover.model.json.Json;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.messaging.LrpStartRequested;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Turns a batch of start request records into the distinct instances they ask for, dropping unreadable ones. */
final class StartRequests {

    private static final Logger log = LoggerFactory.getLogger(StartRequests.class);

    private StartRequests() {
    }

    /** Deduplicated by {@code process_guid.index}, in the order first asked for. */
    static Set<ActualLrpKey> keys(List<ConsumerRecord<String, byte[]>> records) {
        Set<ActualLrpKey> keys = new LinkedHashSet<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            LrpStartRequested request = parse(record);
            if (request != null) {
                for (int index : request.indices()) {
                    if (index >= 0) {
                        keys.add(ActualLrpKey.of(request.processGuid(), index));
                    }
                }
            }
        }
        return keys;
    }

    private static LrpStartRequested parse(ConsumerRecord<String, byte[]> record) {
        try {
            LrpStartRequested request = Json.read(record.value(), LrpStartRequested.class);
            return request.processGuid() == null ? null : request;
        } catch (RuntimeException e) {
            log.warn("start-request-unreadable partition={} offset={} cause={}", record.partition(), record.offset(),
                    e.toString());
            return null;
        }
    }
}
