package io.drover.auctioneer;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Auctioneer settings ({@code drover.auctioneer.*}).
 *
 * @param leaderTtl how long the leader lock lasts unrenewed: a standby takes over at most this long after the leader
 *     dies
 * @param maxRoundSize the most start requests one round takes from Kafka (everything queued, up to this)
 * @param commitBatchSize instances placed (or failed) per transaction when a round is committed
 * @param maxInFlightStarts global cap on containers starting at once; 0 means unlimited
 * @param groupId the Kafka consumer group the leader commits its offsets under, so a new leader resumes there
 * @param reconcileInterval how old the leader's allocation view may get before a round reads the full aggregate again
 *     (zero: every round reads it)
 */
@ConfigurationProperties("drover.auctioneer")
public record AuctioneerProperties(@DefaultValue("15s") Duration leaderTtl, @DefaultValue("10000") int maxRoundSize,
        @DefaultValue("2000") int commitBatchSize, @DefaultValue("0") int maxInFlightStarts,
        @DefaultValue("drover-auctioneer") String groupId, @DefaultValue("3s") Duration reconcileInterval) {
}
