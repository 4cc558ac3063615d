package io.drover.auctioneer.round;

import io.drover.auctioneer.AuctioneerProperties;
import io.drover.auctioneer.scheduling.Scheduler;
import io.drover.model.cell.CellPresence;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.messaging.KafkaTopicsProperties;
import io.drover.model.messaging.Topics;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.ConsumerFactory;
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
    AuctionSnapshots auctionSnapshots(JdbcTemplate jdbc, CellPresence presence, Clock clock, TaskReads tasks) {
        return new AuctionSnapshots(jdbc, presence, clock, tasks);
    }

    @Bean
    AuctionRound auctionRound(AuctionSnapshots snapshots, Scheduler scheduler, ActualLrpLifecycle lifecycle,
            AuctioneerProperties properties, Supplier<UUID> idGenerator, MeterRegistry meters) {
        return new AuctionRound(snapshots, scheduler, lifecycle,
                new AuctionRound.RoundSettings(properties.commitBatchSize(), idGenerator), new AuctionMetrics(meters));
    }

    /** The tasks of each round, placed after its LRPs on the same cells (see {@link TaskAuction}). */
    @Bean
    TaskAuction taskAuction(TaskReads tasks, AuctionSnapshots snapshots, Scheduler scheduler,
            TaskLifecycle lifecycle, AuctioneerProperties properties, Supplier<UUID> idGenerator,
            MeterRegistry meters) {
        return new TaskAuction(tasks, snapshots::cells, scheduler, lifecycle,
                new AuctionRound.RoundSettings(properties.commitBatchSize(), idGenerator), meters);
    }

    @Bean(CONTAINER)
    KafkaMessageListenerContainer<String, String> auctionRoundsContainer(ConsumerFactory<String, String> consumers,
            KafkaTopicsProperties topics, AuctioneerProperties properties, AuctionRound round, TaskAuction tasks) {
        ContainerProperties container = new ContainerProperties(IntStream.range(0, topics.startRequestPartitions())
                .mapToObj(p -> new TopicPartitionOffset(Topics.START_REQUESTS, p)).toArray(TopicPartitionOffset[]::new));
        container.setGroupId(properties.groupId());
        container.setAckMode(ContainerProperties.AckMode.BATCH);
        container.setMessageListener(new StartRequestListener(round, tasks));
        Properties consumer = new Properties();
        consumer.setProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(properties.maxRoundSize()));
        consumer.setProperty(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(8 * 1024 * 1024));
        container.setKafkaConsumerProperties(consumer);
        KafkaMessageListenerContainer<String, String> listener = new KafkaMessageListenerContainer<>(consumers,
                container);
        listener.setAutoStartup(false);
        // A round that cannot commit (database down) is retried; after that the converger re-auctions stale UNCLAIMED.
        listener.setCommonErrorHandler(new DefaultErrorHandler(new FixedBackOff(1_000, 5)));
        return listener;
    }
}
