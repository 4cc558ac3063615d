package io.drover.model.messaging;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the outbox relay behaves ({@code drover.outbox.*}).
 *
 * @param batchSize rows relayed per transaction (per relayed table)
 * @param pollInterval how long an idle active relay waits for a notification before it looks anyway
 * @param standbyInterval how often a standby relay (another one holds the relay lock) checks whether it must take over
 * @param takeoverAfter a standby competes for the lock again once rows have waited this long (the active relay is gone)
 * @param heldBackRetry how soon to look again when committed rows wait behind a transaction still running; once they
 *     have waited longer than a hundred times this, the relay looks again after 1 % of the wait, at most every second
 * @param heldBackWarning how long committed rows may wait behind a transaction still running before the relay warns,
 *     naming that transaction (its pid, state, age and statement)
 * @param sendTimeout how long to wait for the broker's acknowledgement of a batch
 * @param maxBackoff the longest pause between attempts while Kafka is unreachable
 * @param relayEnabled whether this JVM runs a relay
 */
@ConfigurationProperties("drover.outbox")
public record OutboxProperties(@DefaultValue("2000") int batchSize, @DefaultValue("5s") Duration pollInterval,
        @DefaultValue("1s") Duration standbyInterval, @DefaultValue("2s") Duration takeoverAfter,
        @DefaultValue("5ms") Duration heldBackRetry, @DefaultValue("10s") Duration heldBackWarning,
        @DefaultValue("30s") Duration sendTimeout, @DefaultValue("5s") Duration maxBackoff,
        @DefaultValue("true") boolean relayEnabled) {
}
