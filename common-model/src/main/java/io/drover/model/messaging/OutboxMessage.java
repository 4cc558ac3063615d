package io.drover.model.messaging;

import io.drover.model.json.Json;

/**
 * A command waiting in the outbox: where it goes, its key, its type ({@link Command#messageType()}, sent as the
 * {@link Topics#MESSAGE_TYPE_HEADER} header; null for a message that is no command) and its JSON payload as the UTF-8
 * bytes Kafka carries.
 */
public record OutboxMessage(String topic, String key, String type, byte[] payload) {

    public static OutboxMessage of(String topic, String key, Object message) {
        return new OutboxMessage(topic, key, message instanceof Command c ? c.messageType() : null,
                Json.MAPPER.writeValueAsBytes(message));
    }
}
