package io.drover.model.messaging;

import io.drover.model.json.Json;

/** A command waiting in the outbox: where it goes, its key, and its JSON payload as the UTF-8 bytes Kafka carries. */
public record OutboxMessage(String topic, String key, byte[] payload) {

    public static OutboxMessage of(String topic, String key, Object message) {
        return new OutboxMessage(topic, key, Json.MAPPER.writeValueAsBytes(message));
    }
}
