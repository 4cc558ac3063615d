package io.drover.model.messaging;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the outbox relay behaves ({@code drover.outbox.*}).
 *
 * @param batchSize rows relayed per transaction
 * @param pollInterval how often the relay looks for rows written by other JVMs (rows written in this JVM wake it at once)
 * @param sendTimeout how long to wait for the broker's acknowledgement of a batch
 * @param maxBackoff the longest pause between attempts while Kafka is unreachable
 * @param relayEnabled whether this JVM runs a relay
 */
@ConfigurationProperties("drover.outbox")
public record OutboxProperties(@DefaultValue("2000") int batchSize, @DefaultValue("100ms") Duration pollInterval,
        @DefaultValue("30s") Duration sendTimeout, @DefaultValue("5s") Duration maxBackoff,
        @DefaultValue("true") boolean relayEnabled) {
}
