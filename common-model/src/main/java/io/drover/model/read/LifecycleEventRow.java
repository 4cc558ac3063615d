package io.drover.model.read;

import io.drover.model.messaging.EventPosition;
import java.time.Instant;

/**
 * One lifecycle event as {@code lrp_events} holds it: its place in the stream, its type, the process or task guid it is
 * about, its payload (the Kafka value, a {@code LifecycleEvent} as JSON) and when it was written.
 */
public record LifecycleEventRow(EventPosition position, String type, String key, byte[] payload, Instant at) {
}
