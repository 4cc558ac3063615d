package io.drover.converger.autoscale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.drover.converger.ConvergerIntegrationTest;
import io.drover.model.autoscale.AutoscalerRecords;
import io.drover.model.autoscale.AutoscalingStatus;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.deployment.DeploymentLifecycle;
import io.drover.model.deployment.Strategy;
import io.drover.model.leader.LeaderElection;
import io.drover.model.leader.LeaderLock;
import io.drover.model.leader.LeadershipFence;
import io.drover.model.leader.LeadershipLostException;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.AutoscalingPolicy;
import io.drover.model.lrp.Deployable;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.EnvVar;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.RunAction;
import io.drover.model.lrp.StartedInstance;
import io.drover.model.read.AutoscaledLrps;
import io.drover.model.read.AutoscalerStatuses;
import io.drover.model.read.DesiredLrpRows;
import io.drover.model.usage.InstanceUsage;
import io.drover.model.usage.InstanceUsages;
import io.drover.model.usage.UsageRound;
import io.drover.test.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The autoscaler over real PostgreSQL and Kafka: it reads the reps' figures, scales through the desired LRP's ordinary
 * update (event, audit row naming it and the figures), records its decision, continues from what a previous leader
 * recorded, pauses for a deployment, and writes nothing once its leadership is gone. Ticks are called by hand on a
 * clock the test moves (the context's own loop ticks once an hour).
 */
@ConvergerIntegrationTest
class AutoscalerIT {

    private static final Actor TEST = Actor.service("test");
    private static final Duration WARMUP = Duration.ofSeconds(30);

    @Autowired
    Autoscaler autoscaler;
    @Autowired
    AutoscaledLrps reads;
    @Autowired
    AutoscalerRecords records;
    @Autowired
    AutoscalerStatuses statuses;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    DesiredLrpRows desiredRows;
    @Autowired
    ActualLrpLifecycle actuals;
    @Autowired
    DeploymentLifecycle deployments;
    @Autowired
    InstanceUsages usages;
    @Autowired
    CellPresence cells;
    @Autowired
    LeaderElection convergerLeaderElection;
    @Autowired
    LeaderLock lock;
    @Autowired
    MutableClock clock;
    @Autowired
    JdbcTemplate jdbc;

    private final String guid = "autoscaled-" + UUID.randomUUID();
    private final String cell = "cell-" + UUID.randomUUID();
    private final List<InstanceUsage> figures = new ArrayList<>();

    @BeforeEach
    void leaderAndACell() {
        await().atMost(Duration.ofSeconds(20)).until(convergerLeaderElection::isLeader);
        cells.heartbeat(new CellRegistration(cell, "z1", "10.0.0.1", new Resources(4096, 4096, 100),
                List.of("preloaded:host"), List.of(), List.of()), Duration.ofDays(1));
    }

    @Test
    void anLrpUnderLoadGrowsThroughItsOrdinaryUpdateAndTheDecisionIsRecorded() {
        desire(1, new AutoscalingPolicy(1, 4, 50, null, 0, 300));
        run(0, 150);
        clock.advance(Duration.ofSeconds(60));

        autoscaler.tick();

        assertThat(instances()).as("ceil(1 x 150 / 50) = 3, at most doubled").isEqualTo(2);
        AutoscalingStatus status = statuses.status(guid).orElseThrow();
        assertThat(status.cpuPercent()).isEqualTo(150.0);
        assertThat(status.countedInstances()).isEqualTo(1);
        assertThat(status.desiredInstances()).isEqualTo(2);
        assertThat(status.condition()).contains("at most doubling");
        assertThat(status.lastScaleFrom()).isEqualTo(1);
        assertThat(status.lastScaleTo()).isEqualTo(2);
        assertThat(status.lastScaleAt()).isEqualTo(clock.instant());
        Map<String, Object> audit = jdbc.queryForMap("SELECT actor_service, reason FROM lrp_events WHERE "
                + "process_guid = ? AND event_type = 'desired_lrp_changed'", guid);
        assertThat(audit.get("actor_service")).isEqualTo("autoscaler");
        assertThat((String) audit.get("reason")).isEqualTo("autoscaled from 1 to 2: cpu 150.0% of target 50% over 1 "
                + "instance (scaling up, at most doubling per step (3 proposed))");
        assertThat(statuses.samples(guid, clock.instant().minusSeconds(1)))
                .singleElement().satisfies(s -> {
                    assertThat(s.cpuPercent()).isEqualTo(150.0);
                    assertThat(s.instances()).isEqualTo(2);
                });
    }

    @Test
    void aNewLeaderContinuesFromTheProposalsThePreviousOneRecorded() {
        desire(2, new AutoscalingPolicy(1, 4, 50, null, 0, 120));
        run(0, 10);
        run(1, 10);
        clock.advance(Duration.ofSeconds(60));
        Instant first = clock.instant();

        autoscaler.tick();
        assertThat(instances()).as("a new policy holds its size for the scale-down delay").isEqualTo(2);
        clock.advance(Duration.ofSeconds(60));
        autoscaler.tick();
        assertThat(instances()).isEqualTo(2);

        // another converger takes over: it has nothing in memory, only what PostgreSQL holds
        Autoscaler next = new Autoscaler(reads, desired, records, clock, WARMUP);
        clock.set(first.plusSeconds(121));
        next.tick();
        assertThat(instances()).as("every proposal of the last 120 s was 1: down at once, without waiting 120 s "
                + "of its own").isEqualTo(1);
        assertThat(statuses.status(guid).orElseThrow().condition()).isEqualTo("scaling down");
    }

    @Test
    void anActiveDeploymentPausesScaling() {
        desire(1, new AutoscalingPolicy(1, 4, 50, null, 0, 300));
        run(0, 300);
        deployments.start(guid, current -> withEnv(Deployable.of(current.definition())), Strategy.DEFAULT, "alice",
                TEST);
        clock.advance(Duration.ofSeconds(60));

        autoscaler.tick();

        assertThat(instances()).isEqualTo(1);
        assertThat(statuses.status(guid).orElseThrow().condition()).isEqualTo("paused: a deployment is in progress");
        assertThat(statuses.status(guid).orElseThrow().cpuPercent()).as("still measured").isEqualTo(300.0);
    }

    @Test
    void aLeaderThatLostItsLockScalesAndRecordsNothing() {
        desire(1, new AutoscalingPolicy(1, 4, 50, null, 0, 300));
        run(0, 150);
        clock.advance(Duration.ofSeconds(60));
        // the fence of a converger that is not the lock's holder of record: this context's instance is
        LeadershipFence lost = new LeadershipFence(lock, new LeaderElection(lock, "converger", Duration.ofSeconds(15),
                () -> { }, () -> { }));

        Autoscaler deposed = new Autoscaler(reads, desired.guardedBy(lost), records.guardedBy(lost), clock, WARMUP);

        assertThatThrownBy(deposed::tick).isInstanceOf(LeadershipLostException.class);
        assertThat(instances()).isEqualTo(1);
        assertThat(statuses.status(guid)).isEmpty();
    }

    private void desire(int instances, AutoscalingPolicy policy) {
        desired.desire(new DesiredLrpDefinition(guid, "it-apps", "preloaded:host", instances,
                new Action(new RunAction("sleep", List.of("1000"), null, null, null)), null, null, 0, null,
                List.of(8080), 64, 64, 0, 0, null, null, null, null, null, policy), TEST);
    }

    /** Auction, claim and start instance {@code index}, and its rep's figures: {@code cpu} percent of a core. */
    private void run(int index, double cpu) {
        ActualLrpKey key = ActualLrpKey.of(guid, index);
        String instanceGuid = UUID.randomUUID().toString();
        InstanceOwner owner = InstanceOwner.of(instanceGuid, cell);
        actuals.place(UUID.randomUUID(), Map.of(key, cell), Actor.service("auctioneer"));
        actuals.claim(key, owner, Actor.cell(cell));
        actuals.start(new StartedInstance(key, "it-apps", owner, new NetInfo("10.0.0.1",
                List.of(new NetInfo.PortMapping(8080, 61000 + index)))), Actor.cell(cell));
        figures.add(new InstanceUsage(guid, index, instanceGuid, cell, cpu, 32L << 20, 64L << 20, 1 << 20,
                clock.instant()));
        usages.write(UsageRound.of(List.of(cell), figures, Set.of(), true));
    }

    private int instances() {
        return desiredRows.find(guid).orElseThrow().instances();
    }

    private static Deployable withEnv(Deployable d) {
        return new Deployable(d.action(), d.monitor(), d.checkDefinition(), d.startTimeout(),
                List.of(new EnvVar("V", "2")), d.ports(), d.memoryMb(), d.diskMb(), d.maxPids(), d.cpuWeight(),
                d.placementTags());
    }
}
