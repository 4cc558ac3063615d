package io.drover.model.config;

import io.drover.model.autoscale.AutoscalerRecords;
import io.drover.model.cell.CellDrains;
import io.drover.model.cell.CellPresence;
import io.drover.model.deployment.DeploymentLifecycle;
import io.drover.model.deployment.DeploymentSlots;
import io.drover.model.domain.Domains;
import io.drover.model.leader.LeaderLock;
import io.drover.model.leader.LeaderPasses;
import io.drover.model.messaging.PipelineProgress;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.CrashRestartPolicy;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.LifecycleFactory;
import io.drover.model.lrp.OptimisticRetry;
import io.drover.model.messaging.KafkaTopicsProperties;
import io.drover.model.messaging.Outbox;
import io.drover.model.messaging.OutboxProperties;
import io.drover.model.messaging.OutboxRelay;
import io.drover.model.messaging.OutboxSignal;
import io.drover.model.messaging.Topics;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskModelProperties;
import io.drover.model.task.TaskReads;
import io.drover.model.usage.InstanceUsages;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Gives every service the shared model: the lifecycles of LRPs, deployments and tasks (the only write paths, all
 * over JDBC), the outbox and its relay, topic creation, cell presence, instance usage figures, domains and leader
 * locks. Producers are made durable here ({@code acks=all}, idempotence) so no service can forget it.
 */
@AutoConfiguration(afterName = "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration")
@EnableConfigurationProperties({ OutboxProperties.class, KafkaTopicsProperties.class, LifecycleProperties.class,
        TaskModelProperties.class })
public class DroverModelAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    @ConditionalOnMissingBean(name = "idGenerator")
    Supplier<UUID> idGenerator() {
        return new TimeOrderedIds();
    }

    @Bean
    CrashRestartPolicy crashRestartPolicy(LifecycleProperties p) {
        return new CrashRestartPolicy(p.immediateRestarts(), p.crashInitialDelay(), p.crashMaxDelay(), p.maxCrashes(),
                p.crashResetAfter());
    }

    @Bean
    OutboxSignal outboxSignal() {
        return new OutboxSignal();
    }

    @Bean
    Outbox outbox(JdbcTemplate jdbc, Clock clock, OutboxSignal signal) {
        return new Outbox(jdbc, clock, signal);
    }

    /**
     * The relay's own producer: the service's producer settings (brokers, security, durability) with byte values (rows
     * hold the Kafka value already) and batching, since a relay batch is hundreds of records sent at once. A send waits
     * for the broker's metadata (a new producer, a topic it has not sent to lately) no longer than the relay waits for
     * acknowledgements ({@code max.block.ms} at most the send timeout, lower when the producers' own is; Kafka's
     * default is 60 s): the relay's transaction has a bound of its own, the send timeout + 10 s, and a send blocked
     * past it ended the transaction from under the relay.
     */
    @Bean
    @ConditionalOnProperty(name = "drover.outbox.relay-enabled", havingValue = "true", matchIfMissing = true)
    OutboxRelay outboxRelay(JdbcTemplate jdbc, ProducerFactory<?, ?> producers,
            OutboxSignal signal, Clock clock, OutboxProperties properties, MeterRegistry meters) {
        @SuppressWarnings("unchecked")
        ProducerFactory<String, byte[]> relayProducers = (ProducerFactory<String, byte[]>) producers
                .copyWithConfigurationOverride(Map.of(
                        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                        ProducerConfig.LINGER_MS_CONFIG, 5,
                        ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
                        ProducerConfig.MAX_BLOCK_MS_CONFIG, relayMaxBlockMs(producers, properties)));
        return new OutboxRelay(jdbc, plain(jdbc), new KafkaTemplate<>(relayProducers), signal, clock, properties,
                meters);
    }

    /** The producers' {@code max.block.ms} when set lower, else the relay's send timeout. */
    static long relayMaxBlockMs(ProducerFactory<?, ?> producers, OutboxProperties properties) {
        long bound = properties.sendTimeout().toMillis();
        Object configured = producers.getConfigurationProperties().get(ProducerConfig.MAX_BLOCK_MS_CONFIG);
        return configured == null ? bound : Math.min(bound, Long.parseLong(configured.toString().trim()));
    }

    @Bean
    LifecycleFactory lifecycleFactory(JdbcTemplate jdbc, Outbox outbox, Clock clock, Supplier<UUID> idGenerator,
            CrashRestartPolicy policy) {
        return new LifecycleFactory(plain(jdbc), jdbc, outbox, clock, idGenerator, policy);
    }

    @Bean
    ActualLrpLifecycle actualLrpLifecycle(LifecycleFactory factory, LifecycleProperties properties) {
        return factory.actualLrpLifecycle(properties.optimisticLockAttempts());
    }

    @Bean
    DesiredLrpLifecycle desiredLrpLifecycle(LifecycleFactory factory, LifecycleProperties properties) {
        return factory.desiredLrpLifecycle(properties.optimisticLockAttempts());
    }

    /** The only write path to deployments (SPEC 14); it redefines desired LRPs through their lifecycle. */
    @Bean
    DeploymentLifecycle deploymentLifecycle(JdbcTemplate jdbc, DesiredLrpLifecycle desiredLrpLifecycle, Outbox outbox,
            Clock clock, Supplier<UUID> idGenerator, LifecycleProperties properties) {
        return new DeploymentLifecycle(plain(jdbc), jdbc, desiredLrpLifecycle, outbox, clock, idGenerator,
                new OptimisticRetry(properties.optimisticLockAttempts()));
    }

    /** The autoscaler's records (SPEC 17): written by the converger's leader, fenced by its lock. */
    @Bean
    AutoscalerRecords autoscalerRecords(JdbcTemplate jdbc) {
        return new AutoscalerRecords(plain(jdbc), jdbc, AutoscalerRecords.HISTORY);
    }

    @Bean
    DeploymentSlots deploymentSlots(JdbcTemplate jdbc) {
        return new DeploymentSlots(jdbc);
    }

    /** The only write path to tasks; its transactions and lost-race retries work like the LRP lifecycles'. */
    @Bean
    TaskLifecycle taskLifecycle(JdbcTemplate jdbc, Outbox outbox, Clock clock, Supplier<UUID> idGenerator,
            LifecycleProperties properties, TaskModelProperties tasks) {
        return TaskLifecycle.create(plain(jdbc), jdbc, outbox, clock, idGenerator,
                properties.optimisticLockAttempts(), tasks.tombstoneTtl());
    }

    @Bean
    TaskReads taskReads(JdbcTemplate jdbc) {
        return new TaskReads(jdbc);
    }

    @Bean
    ActualLrpRepository actualLrpRepository(JdbcTemplate jdbc) {
        return new ActualLrpRepository(jdbc);
    }

    @Bean
    CellPresence cellPresence(JdbcTemplate jdbc, Clock clock) {
        return new CellPresence(jdbc, clock);
    }

    /** The only write path to operators' drains of cells (SPEC 18), audited, each a cell_changed event. */
    @Bean
    CellDrains cellDrains(JdbcTemplate jdbc, Outbox outbox, Clock clock, Supplier<UUID> idGenerator) {
        return new CellDrains(plain(jdbc), jdbc, outbox, clock, idGenerator);
    }

    @Bean
    InstanceUsages instanceUsages(JdbcTemplate jdbc, Clock clock) {
        return new InstanceUsages(jdbc, clock);
    }

    @Bean
    Domains domains(JdbcTemplate jdbc, Clock clock) {
        return new Domains(jdbc, clock);
    }

    @Bean
    LeaderLock leaderLock(JdbcTemplate jdbc, Clock clock) {
        return new LeaderLock(jdbc, clock);
    }

    /** Where the start pipeline stands (rule 3): the auctioneer leader reports, at most twice a second; the converger reads. */
    @Bean
    PipelineProgress pipelineProgress(JdbcTemplate jdbc, Clock clock) {
        return new PipelineProgress(jdbc, clock, Duration.ofMillis(500));
    }

    @Bean
    LeaderPasses leaderPasses(JdbcTemplate jdbc, Clock clock) {
        return new LeaderPasses(jdbc, clock);
    }

    @Bean
    DefaultKafkaProducerFactoryCustomizer droverDurableProducer() {
        return factory -> {
            factory.updateConfigs(Map.of(
                    ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                    ProducerConfig.LINGER_MS_CONFIG, 2,
                    ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Topics.MAX_MESSAGE_BYTES));
            // Everything the relay sends is acknowledged before its rows are marked sent, so closing need not wait
            // long for a broker that is gone: unacknowledged rows are simply sent again by the next relay.
            factory.setPhysicalCloseTimeout(5);
        };
    }

    @Bean
    NewTopic startRequestsTopic(KafkaTopicsProperties p) {
        return topic(Topics.START_REQUESTS, p.startRequestPartitions(), p.replicationFactor());
    }

    @Bean
    NewTopic auctionResultsTopic(KafkaTopicsProperties p) {
        return topic(Topics.AUCTION_RESULTS, p.cellPartitions(), p.replicationFactor());
    }

    @Bean
    NewTopic stopRequestsTopic(KafkaTopicsProperties p) {
        return topic(Topics.STOP_REQUESTS, p.cellPartitions(), p.replicationFactor());
    }

    @Bean
    NewTopic lifecycleEventsTopic(KafkaTopicsProperties p) {
        return topic(Topics.LIFECYCLE_EVENTS, p.lifecyclePartitions(), p.replicationFactor());
    }

    /** One partition: a message per transaction that changed a desired LRP or removed instances, for the converger. */
    @Bean
    NewTopic convergenceRequestsTopic(KafkaTopicsProperties p) {
        return topic(Topics.CONVERGENCE_REQUESTS, 1, p.replicationFactor());
    }

    /** A Drover topic: takes any message the producers may send ({@link Topics#MAX_MESSAGE_BYTES}). */
    public static NewTopic topic(String name, int partitions, short replicationFactor) {
        return new NewTopic(name, partitions, replicationFactor).configs(
                Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, String.valueOf(Topics.MAX_MESSAGE_BYTES)));
    }

    /** A transaction of JDBC statements on the DataSource of {@code jdbc}: every write path's. */
    static TransactionTemplate plain(JdbcTemplate jdbc) {
        return new TransactionTemplate(plainTransactions(jdbc));
    }

    /**
     * The manager of those transactions, the model's own rather than the service's bean (whatever a service makes its
     * default); transactions of both on one DataSource join each other.
     */
    static DataSourceTransactionManager plainTransactions(JdbcTemplate jdbc) {
        return new DataSourceTransactionManager(jdbc.getDataSource());
    }
}
