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

/** Turns a batch of start request records into the distinct instances and tasks they ask for, dropping unreadable ones. */
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

    /** The distinct task guids the batch asks to place, in the order first asked for. */
    static Set<String> taskGuids(List<ConsumerRecord<String, byte[]>> records) {
        Set<String> guids = new LinkedHashSet<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            // an unreadable record was reported by keys() already
            LrpStartRequested request = read(record, false);
            if (request != null) {
                request.taskGuids().stream().filter(g -> g != null && !g.isEmpty()).forEach(guids::add);
            }
        }
        return guids;
    }

    private static LrpStartRequested parse(ConsumerRecord<String, byte[]> record) {
        LrpStartRequested request = read(record, true);
        return request == null || request.processGuid() == null ? null : request;
    }

    private static LrpStartRequested read(ConsumerRecord<String, byte[]> record, boolean warn) {
        try {
            return Json.read(record.value(), LrpStartRequested.class);
        } catch (RuntimeException e) {
            if (!warn) {
                return null;
            }
            log.warn("start-request-unreadable partition={} offset={} cause={}", record.partition(), record.offset(),
                    e.toString());
            return null;
        }
    }
}
