package io.drover.auctioneer.leadership;

import io.drover.auctioneer.AuctioneerProperties;
import io.drover.auctioneer.allocation.Allocations;
import io.drover.model.leader.LeaderElection;
import io.drover.model.leader.LeaderLock;
import io.drover.model.leader.LeadershipFence;
import io.drover.model.messaging.TopicReader;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * One active auctioneer, any number of hot standbys: the holder of the {@code auctioneer} lock runs the start request
 * consumer; a standby consumes nothing. When the leader dies, a standby takes the lock once its TTL has passed (at
 * once when the leader shut down cleanly and released it). Each leadership starts from a fresh allocation view, and
 * every write of a round is fenced by the lock ({@link LeadershipFence}).
 */
@Configuration(proxyBeanMethods = false)
class LeadershipConfiguration {

    static final String LOCK = "auctioneer";

    /** The reader is looked up when first needed: the rounds it runs are fenced by this election. */
    @Bean
    LeaderElection auctioneerLeaderElection(LeaderLock lock, AuctioneerProperties properties,
            @Qualifier("auctionRoundsReader") ObjectProvider<TopicReader> rounds,
            Allocations allocations) {
        return new LeaderElection(lock, LOCK, properties.leaderTtl(), () -> {
            allocations.drop();
            rounds.getObject().start();
        }, () -> {
            rounds.getObject().close();
            allocations.drop();
        });
    }

    @Bean
    LeadershipFence auctioneerLeadershipFence(LeaderLock lock, LeaderElection auctioneerLeaderElection) {
        return new LeadershipFence(lock, auctioneerLeaderElection);
    }
}
