package io.drover.converger.pass;

import static io.drover.converger.pass.LrpFixtures.guid;
import static io.drover.converger.pass.LrpFixtures.keys;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.converger.ConvergerIntegrationTest;
import io.drover.converger.plan.Rule;
import io.drover.model.cell.CellPresence;
import io.drover.model.domain.Domains;
import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.Outcome;
import io.drover.model.messaging.LrpStartRequested;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.PipelineProgress;
import io.drover.test.MutableClock;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;

/** The loop against real PostgreSQL and Kafka: each repair ends in rows changed and start requests on the topic. */
@ConvergerIntegrationTest
class ConvergenceIT {

    @Autowired
    MutableClock clock;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    ActualLrpLifecycle actual;
    @Autowired
    ActualLrpRepository actuals;
    @Autowired
    CellPresence cells;
    @Value("${spring.kafka.bootstrap-servers}")
    String kafka;

    LrpFixtures fixtures;
    @Autowired
    Domains domains;
    @Autowired
    MeterRegistry meters;
    @Autowired
    io.drover.model.leader.LeaderPasses passes;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    SnapshotReader snapshots;

    TopicProbe<LrpStartRequested> startRequests;
    TopicProbe<LrpStopRequested> stopRequests;

    @BeforeEach
    void setUp() {
        fixtures = new LrpFixtures(desired, actual, cells);
        startRequests = TopicProbe.startRequests(kafka);
        stopRequests = TopicProbe.stopRequests(kafka);
    }

    @AfterEach
    void tearDown() {
        startRequests.close();
        stopRequests.close();
    }

    @Test
    void aPassReadsOnlyTheInstancesARuleMayActOnAndKnowsTheRestWhole() {
        String live = guid("live-cell");
        String gone = guid("gone-cell");
        fixtures.heartbeat(live, Duration.ofHours(1));
        String settled = guid("settled");
        String crashed = guid("one-crashed");
        String shrunk = guid("shrunk");
        String lost = guid("on-a-gone-cell");
        for (String lrp : List.of(settled, crashed, shrunk, lost)) {
            fixtures.desire(lrp, 3);
            keys(lrp, 3).forEach(key -> fixtures.runOn(key, lrp.equals(lost) ? gone : live));
        }
        ActualLrp crashing = actuals.findById(ActualLrpKey.of(crashed, 1)).orElseThrow();
        actual.crash(crashing.key(), crashing.owner(), "exited with status 1", Actor.cell(live));
        fixtures.scale(shrunk, 2);

        var snapshot = snapshots.read();

        assertThat(snapshot.actuals()).filteredOn(a -> List.of(settled, crashed, shrunk, lost).contains(
                a.processGuid())).extracting(a -> a.processGuid().substring(0, a.processGuid().length() - 37) + "/"
                        + a.index())
                .as("the crashed instance, every instance of the LRP with an extra index, those on a gone cell")
                .containsExactlyInAnyOrder("one-crashed/1", "shrunk/0", "shrunk/1", "shrunk/2",
                        "on-a-gone-cell/0", "on-a-gone-cell/1", "on-a-gone-cell/2");
        assertThat(snapshot.wholeLrps()).contains(settled, crashed, lost).doesNotContain(shrunk);
        assertThat(snapshot.actualsHeld()).isGreaterThanOrEqualTo(12);
    }

    @Test
    void aDesiredLrpWithNoActualsGetsAllItsUnclaimedInstancesAndOneStartRequest() {
        String guid = guid("lost-records");
        fixtures.desire(guid, 3);
        assertThat(actual.retire(keys(guid, 3), "test: the records are lost", Actor.service("test")).values())
                .containsOnly(Outcome.CHANGED);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(actuals.findByProcessGuid(guid))
                .extracting(ActualLrp::index, ActualLrp::state)
                .containsExactly(tuple(0), tuple(1), tuple(2)));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                startRequests(guid, Rule.MISSING_INDEX))
                .singleElement().extracting(LrpStartRequested::indices).isEqualTo(List.of(0, 1, 2)));
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(
                () -> startRequests(guid, Rule.MISSING_INDEX).size() == 1);
    }

    @Test
    void everyPassIsRecordedWhereOtherServicesCanReadIt() {
        java.time.Instant from = clock.instant();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(passes.last(PassLedger.LOOP))
                .hasValueSatisfying(pass -> {
                    assertThat(pass.finishedAt()).isAfterOrEqualTo(from);
                    assertThat(pass.holder()).isNotBlank();
                    assertThat(pass.durationMs()).isPositive();
                    assertThat(pass.actions()).isNotNegative();
                }));
    }

    @Test
    void theInstancesOfACellWhoseHeartbeatStopsAreUnclaimedAndAuctionedOnceItsPresenceExpires() {
        String cell = guid("cell-dies");
        String guid = guid("on-dying-cell");
        fixtures.heartbeat(cell, Duration.ofSeconds(15));
        fixtures.desire(guid, 2);
        keys(guid, 2).forEach(key -> fixtures.runOn(key, cell));
        assertThat(actuals.findByCellId(cell)).hasSize(2).allMatch(a -> a.state() == ActualLrpState.RUNNING);

        clock.advance(Duration.ofSeconds(16));
        long expired = System.nanoTime();

        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> assertThat(actuals.findByProcessGuid(guid))
                .allMatch(a -> a.state() == ActualLrpState.UNCLAIMED && a.cellId() == null).hasSize(2));
        System.out.printf("cell-loss-reaction unclaimed_after_ms=%d%n", (System.nanoTime() - expired) / 1_000_000);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
                startRequests(guid, Rule.LOST_CELL))
                .singleElement().extracting(LrpStartRequested::indices).isEqualTo(List.of(0, 1)));
    }

    @Test
    void anUnclaimedInstanceTheAuctionHasNotReachedWaitsHoweverOldAndGoesAgainThirtySecondsAfterItWasPassed() {
        String guid = guid("queued");
        PipelineProgress progress = new PipelineProgress(jdbc, clock, Duration.ZERO);
        Instant asked = clock.instant();
        try {
            progress.report(PipelineProgress.AUCTION, asked.minusSeconds(1));
            fixtures.desire(guid, 1);
            clock.advance(Duration.ofSeconds(60));
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(6))
                    .until(() -> startRequests(guid, Rule.STALE_UNCLAIMED).isEmpty());

            progress.report(PipelineProgress.AUCTION, asked.plusSeconds(30));
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                    .until(() -> startRequests(guid, Rule.STALE_UNCLAIMED).isEmpty());

            progress.report(PipelineProgress.AUCTION, asked.plusSeconds(31));
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                    startRequests(guid, Rule.STALE_UNCLAIMED))
                    .singleElement().extracting(LrpStartRequested::indices).isEqualTo(List.of(0)));
        } finally {
            jdbc.update("DELETE FROM pipeline_progress WHERE stage = ?", PipelineProgress.AUCTION);
        }
    }

    @Test
    void aCrashedInstanceWithThreeCrashesIsRestartedThirtySecondsAfterItsLastCrash() {
        String cell = guid("cell-crashy");
        String guid = guid("crashy");
        ActualLrpKey key = ActualLrpKey.of(guid, 0);
        fixtures.heartbeat(cell, Duration.ofHours(1));
        fixtures.desire(guid, 1);
        assertThat(fixtures.claimAndCrash(key, cell)).isEqualTo(ActualLrpState.UNCLAIMED);
        assertThat(fixtures.claimAndCrash(key, cell)).isEqualTo(ActualLrpState.UNCLAIMED);
        assertThat(fixtures.claimAndCrash(key, cell)).isEqualTo(ActualLrpState.CRASHED);

        clock.advance(Duration.ofSeconds(29));
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                .until(() -> stateOf(key) == ActualLrpState.CRASHED);

        clock.advance(Duration.ofSeconds(1));
        await().atMost(Duration.ofSeconds(3)).until(() -> stateOf(key) == ActualLrpState.UNCLAIMED);
        assertThat(actuals.findById(key)).get().extracting(ActualLrp::crashCount).isEqualTo(3);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
                startRequests(guid, Rule.CRASH_RESTART))
                .singleElement().extracting(LrpStartRequested::indices).isEqualTo(List.of(0)));
    }

    @Test
    void anExtraInstanceAndThenOrphansAreStoppedOnlyOnceTheirDomainIsFresh() {
        String domain = guid("domain");
        String cell = guid("cell-extra");
        String guid = guid("scaled-down");
        fixtures.heartbeat(cell, Duration.ofHours(1));
        fixtures.desire(guid, 2, domain);
        keys(guid, 2).forEach(key -> fixtures.runOn(key, cell, domain));
        fixtures.scale(guid, 1);
        double skippedBefore = meters.counter("drover.convergence.skipped.unfresh", "rule", "extra-index").count();

        await().atMost(Duration.ofSeconds(5)).until(() -> meters.counter("drover.convergence.skipped.unfresh",
                "rule", "extra-index").count() > skippedBefore);
        assertThat(stopRequests(guid, Rule.EXTRA_INDEX)).isEmpty();

        domains.upsert(domain, null);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(stopRequests(guid, Rule.EXTRA_INDEX))
                .isNotEmpty().allMatch(stop -> stop.index() == 1 && stop.cellId().equals(cell)));

        fixtures.remove(guid);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(stopRequests(guid, Rule.ORPHAN))
                .extracting(LrpStopRequested::index).contains(0, 1));
        assertThat(actuals.findByProcessGuid(guid)).allMatch(a -> a.state() == ActualLrpState.RUNNING);
    }

    private List<LrpStartRequested> startRequests(String guid, Rule rule) {
        return startRequests.received(r -> r.processGuid().equals(guid) && r.reason().equals(rule.reason()));
    }

    private List<LrpStopRequested> stopRequests(String guid, Rule rule) {
        return stopRequests.received(r -> r.processGuid().equals(guid) && r.reason().equals(rule.reason()));
    }

    private ActualLrpState stateOf(ActualLrpKey key) {
        return actuals.findById(key).map(ActualLrp::state).orElse(null);
    }

    private static org.assertj.core.groups.Tuple tuple(int index) {
        return org.assertj.core.groups.Tuple.tuple(index, ActualLrpState.UNCLAIMED);
    }
}
