package io.drover.auctioneer.leadership;

import io.drover.auctioneer.AuctioneerProperties;
import io.drover.model.leader.LeaderElection;
import io.drover.model.leader.LeaderLock;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * One active auctioneer, any number of hot standbys: the holder of the {@code auctioneer} lock runs the start request
 * consumer; a standby consumes nothing. When the leader dies, a standby takes the lock once its TTL has passed (at
 * once when the leader shut down cleanly and released it).
 */
@Configuration(proxyBeanMethods = false)
class LeadershipConfiguration {

    static final String LOCK = "auctioneer";

    @Bean
    LeaderElection auctioneerLeaderElection(LeaderLock lock, AuctioneerProperties properties,
            @Qualifier("auctionRoundsContainer") MessageListenerContainer rounds) {
        return new LeaderElection(lock, LOCK, properties.leaderTtl(), rounds::start, rounds::stop);
    }
}
