package io.drover.model.messaging;

import io.drover.model.json.Json;

/** A message waiting in the outbox: where it goes, its key, and its JSON payload. */
public record OutboxMessage(String topic, String key, String payload) {

    public static OutboxMessage of(String topic, String key, Object message) {
        return new OutboxMessage(topic, key, Json.write(message));
    }
}
