package io.drover.auctioneer.round;

import io.drover.auctioneer.AuctioneerProperties;
import io.drover.auctioneer.allocation.Allocations;
import io.drover.auctioneer.leadership.LeadershipFence;
import io.drover.auctioneer.leadership.LeadershipLostException;
import io.drover.auctioneer.scheduling.Scheduler;
import io.drover.model.cell.CellPresence;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.messaging.KafkaTopicsProperties;
import io.drover.model.messaging.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.CommonDelegatingErrorHandler;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.KafkaMessageListenerContainer;
import org.springframework.kafka.support.TopicPartitionOffset;
import org.springframework.util.backoff.FixedBackOff;

/**
 * Wires the round to Kafka. The consumer is assigned every partition of the start request topic itself (no group
 * rebalance, so a new leader starts consuming at once) and commits offsets under one group id, so a new leader
 * resumes where the last one stopped. The container never starts on its own: leadership starts and stops it.
 */
@Configuration(proxyBeanMethods = false)
class AuctionRoundConfiguration {

    /** Name of the start request container bean, which leadership starts and stops. */
    static final String CONTAINER = "auctionRoundsContainer";

    @Bean
    Scheduler scheduler(AuctioneerProperties properties) {
        return new Scheduler(properties.maxInFlightStarts());
    }

    @Bean
    AuctionSnapshots auctionSnapshots(JdbcTemplate jdbc, CellPresence presence, Clock clock) {
        return new AuctionSnapshots(jdbc, presence, clock);
    }

    @Bean
    RoundDecision roundDecision(AuctionSnapshots snapshots, Allocations allocations, Scheduler scheduler) {
        return new RoundDecision(snapshots, allocations, scheduler);
    }

    /** Every write of a round goes through the lifecycle fenced by the leader lock (see {@link LeadershipFence}). */
    @Bean
    AuctionRound auctionRound(AuctionSnapshots snapshots, RoundDecision decision, ActualLrpLifecycle lifecycle,
            LeadershipFence fence, AuctioneerProperties properties, Supplier<UUID> idGenerator, MeterRegistry meters,
            ObjectProvider<RoundHook> hook) {
        return new AuctionRound(snapshots, decision, lifecycle.guardedBy(fence),
                new AuctionRound.RoundSettings(properties.commitBatchSize(), idGenerator,
                        hook.getIfAvailable(() -> RoundHook.NONE)), new AuctionMetrics(meters));
    }

    @Bean(CONTAINER)
    KafkaMessageListenerContainer<String, String> auctionRoundsContainer(ConsumerFactory<String, String> consumers,
            KafkaTopicsProperties topics, AuctioneerProperties properties, AuctionRound round) {
        ContainerProperties container = new ContainerProperties(IntStream.range(0, topics.startRequestPartitions())
                .mapToObj(p -> new TopicPartitionOffset(Topics.START_REQUESTS, p)).toArray(TopicPartitionOffset[]::new));
        container.setGroupId(properties.groupId());
        container.setAckMode(ContainerProperties.AckMode.BATCH);
        container.setMessageListener(new StartRequestListener(round));
        Properties consumer = new Properties();
        consumer.setProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(properties.maxRoundSize()));
        consumer.setProperty(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(8 * 1024 * 1024));
        container.setKafkaConsumerProperties(consumer);
        KafkaMessageListenerContainer<String, String> listener = new KafkaMessageListenerContainer<>(consumers,
                container);
        listener.setAutoStartup(false);
        listener.setCommonErrorHandler(errorHandler());
        return listener;
    }

    /**
     * A round that cannot commit (database down) is retried a few times; after that its offsets are committed and the
     * converger re-auctions the stale UNCLAIMED instances. A fenced round (this auctioneer was deposed) must not commit
     * the offsets of requests it did not place: it is retried until leadership stops the container, which leaves the
     * batch to the new leader (or until it succeeds, had this auctioneer got the lock back).
     */
    private static CommonErrorHandler errorHandler() {
        CommonDelegatingErrorHandler errors = new CommonDelegatingErrorHandler(
                new DefaultErrorHandler(new FixedBackOff(1_000, 5)));
        errors.addDelegate(LeadershipLostException.class,
                new DefaultErrorHandler(new FixedBackOff(1_000, FixedBackOff.UNLIMITED_ATTEMPTS)));
        return errors;
    }
}
