package io.drover.auctioneer.round;

import io.drover.auctioneer.AuctioneerProperties;
import io.drover.auctioneer.allocation.Allocations;
import io.drover.auctioneer.scheduling.Scheduler;
import io.drover.model.leader.LeadershipFence;
import io.drover.model.leader.LeadershipLostException;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.messaging.KafkaTopicsProperties;
import io.drover.model.messaging.PipelineProgress;
import io.drover.model.messaging.TopicReader;
import io.drover.model.messaging.Topics;
import io.drover.model.read.LiveCells;
import io.drover.model.read.PlaceableInstances;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.time.Clock;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.apache.kafka.common.TopicPartition;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.ConsumerFactory;

/**
 * Wires the round to Kafka. The reader takes every partition of the start request topic itself (no group rebalance, so
 * a new leader starts consuming at once) and commits offsets under one group id, so a new leader resumes where the last
 * one stopped. The reader never starts on its own: leadership starts and stops it.
 */
@Configuration(proxyBeanMethods = false)
class AuctionRoundConfiguration {

    /** Name of the start request reader bean, which leadership starts and stops. */
    static final String READER = "auctionRoundsReader";

    @Bean
    Scheduler scheduler(AuctioneerProperties properties) {
        return new Scheduler(properties.maxInFlightStarts());
    }

    @Bean
    AuctionSnapshots auctionSnapshots(PlaceableInstances placeable, LiveCells cells, Clock clock) {
        return new AuctionSnapshots(placeable, cells, clock);
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

    /** The tasks of each round, placed after its LRPs on the same view and fenced the same way ({@link TaskAuction}). */
    @Bean
    TaskAuction taskAuction(TaskReads tasks, RoundDecision decision, TaskLifecycle lifecycle, LeadershipFence fence,
            AuctioneerProperties properties, Supplier<UUID> idGenerator, MeterRegistry meters) {
        return new TaskAuction(tasks, decision, lifecycle.guardedBy(fence),
                new AuctionRound.RoundSettings(properties.commitBatchSize(), idGenerator, RoundHook.NONE), meters);
    }

    /**
     * Each poll is one round: everything queued (up to the round size), with no waiting window; offsets are committed
     * after the round, so after its database commit (a redelivered request finds its instances placed and skips them).
     * A round that cannot commit (database down) is retried a few times; after that its offsets are committed and the
     * converger re-auctions the stale UNCLAIMED instances. A fenced round (this auctioneer was deposed) must not commit
     * the offsets of requests it did not place: it is retried until leadership stops the reader, which leaves the
     * batch to the new leader (or until it succeeds, had this auctioneer got the lock back).
     *
     * <p>After each poll the leader reports how far it got ({@link PipelineProgress#AUCTION}, at most twice a second),
     * so the converger's rule 3 tells a request still queued here from a lost one.
     */
    @Bean(READER)
    TopicReader auctionRoundsReader(ConsumerFactory<?, ?> consumers, KafkaTopicsProperties topics,
            AuctioneerProperties properties, AuctionRound round, TaskAuction tasks, PipelineProgress progress) {
        List<TopicPartition> partitions = IntStream.range(0, topics.startRequestPartitions())
                .mapToObj(p -> new TopicPartition(Topics.START_REQUESTS, p)).toList();
        return new TopicReader(consumers, new TopicReader.Settings("auction-rounds", properties.groupId(),
                TopicReader.StartAt.COMMITTED_OR_EARLIEST, null, properties.maxRoundSize(), Duration.ofMillis(500), 5,
                LeadershipLostException.class), c -> partitions, records -> {
                    // the round's LRP instances first, then its tasks on what the instances left
                    round.run(StartRequests.keys(records));
                    tasks.run(StartRequests.taskGuids(records));
                }, through -> progress.report(PipelineProgress.AUCTION, through)).trackingThrough();
    }
}
