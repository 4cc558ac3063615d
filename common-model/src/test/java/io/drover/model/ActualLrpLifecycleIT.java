package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.drover.model.Records.Audit;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpNotFoundException;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.IllegalTransitionException;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.Outcome;
import io.drover.model.lrp.StartedInstance;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.LrpStartRequested;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.messaging.Topics;
import io.drover.test.MutableClock;
import io.drover.test.WithDroverInfrastructure;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/** Every {@link ActualLrpLifecycle} operation end to end: the row, its audit rows and the messages it causes. */
@SpringBootTest
@WithDroverInfrastructure
class ActualLrpLifecycleIT {

    static final Actor CONVERGER = Actor.service("converger");
    static final NetInfo NET = new NetInfo("10.0.0.7", List.of(new NetInfo.PortMapping(8080, 61000)));

    @Autowired
    ActualLrpLifecycle lifecycle;
    @Autowired
    ActualLrpRepository actuals;
    @Autowired
    CellPresence cells;
    @Autowired
    MutableClock clock;
    @Autowired
    JdbcTemplate jdbc;

    Records records;
    String guid;

    @BeforeEach
    void newProcess() {
        records = new Records(jdbc);
        guid = "lrp-" + UUID.randomUUID();
    }

    @Test
    void aGuardThatRefusesRollsTheOperationBackAndIsNotRetried() {
        java.util.concurrent.atomic.AtomicInteger checks = new java.util.concurrent.atomic.AtomicInteger();
        ActualLrpLifecycle fenced = lifecycle.guardedBy(() -> {
            checks.incrementAndGet();
            throw new IllegalStateException("not the leader");
        });
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> fenced.createUnclaimed(guid, "d1", List.of(0), "missing",
                CONVERGER)).isInstanceOf(IllegalStateException.class).hasMessage("not the leader");
        assertThat(checks).hasValue(1);
        assertThat(actuals.findByProcessGuid(guid)).isEmpty();
        assertThat(lifecycle.guardedBy(() -> { }).createUnclaimed(guid, "d1", List.of(0), "missing", CONVERGER))
                .as("a guard that passes").containsExactly(0);
    }

    @Test
    void createUnclaimedRequestsOneAuctionForAllNewIndices() {
        assertThat(lifecycle.createUnclaimed(guid, "d1", List.of(2, 0, 1, 1), "desired", CONVERGER))
                .containsExactly(0, 1, 2);
        assertThat(actuals.findByProcessGuid(guid)).extracting(ActualLrp::state).containsOnly(ActualLrpState.UNCLAIMED)
                .hasSize(3);
        assertThat(lifecycle.createUnclaimed(guid, "d1", List.of(0, 1, 2, 3), "missing index", CONVERGER))
                .containsExactly(3);

        assertThat(records.messages(Topics.START_REQUESTS, guid, LrpStartRequested.class))
                .extracting(LrpStartRequested::indices, LrpStartRequested::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(List.of(0, 1, 2), "desired"),
                        org.assertj.core.groups.Tuple.tuple(List.of(3), "missing index"));
        assertThat(records.audit(guid)).hasSize(4).allSatisfy(a -> {
            assertThat(a.type()).isEqualTo(LifecycleEvent.ACTUAL_LRP_CREATED);
            assertThat(a.from()).isNull();
            assertThat(a.to()).isEqualTo("UNCLAIMED");
            assertThat(a.actorService()).isEqualTo("converger");
            assertThat(a.version()).isZero();
        });
        assertThat(records.messages(Topics.LIFECYCLE_EVENTS, guid, LifecycleEvent.class))
                .extracting(LifecycleEvent::type).containsOnly(LifecycleEvent.ACTUAL_LRP_CREATED).hasSize(4);
    }

    @Test
    void placeSendsEachCellOneResultCarryingEpochAndVersion() {
        lifecycle.createUnclaimed(guid, "d1", List.of(0, 1, 2), "desired", CONVERGER);
        UUID auction = UUID.randomUUID();
        Map<ActualLrpKey, String> placement = new LinkedHashMap<>();
        placement.put(key(0), "cell-a");
        placement.put(key(1), "cell-a");
        placement.put(key(2), "cell-b");
        placement.put(ActualLrpKey.of(guid, 9), "cell-b");

        Map<ActualLrpKey, Outcome> outcomes = lifecycle.place(auction, placement, Actor.service("auctioneer"));

        assertThat(outcomes).containsEntry(key(0), Outcome.CHANGED).containsEntry(key(2), Outcome.CHANGED)
                .containsEntry(ActualLrpKey.of(guid, 9), Outcome.NOT_FOUND);
        ActualLrp placed = actuals.findById(key(0)).orElseThrow();
        assertThat(placed.state()).isEqualTo(ActualLrpState.UNCLAIMED);
        assertThat(placed.placement().cellId()).isEqualTo("cell-a");
        assertThat(placed.version()).isEqualTo(1);
        LrpsPlaced toA = lastMessage(Topics.AUCTION_RESULTS, "cell-a", LrpsPlaced.class);
        assertThat(toA.auctionId()).isEqualTo(auction);
        assertThat(toA.placements()).containsExactlyInAnyOrder(
                new LrpsPlaced.Placement(guid, 0, placed.epoch(), 1, 1),
                new LrpsPlaced.Placement(guid, 1, actuals.findById(key(1)).orElseThrow().epoch(), 1, 1));
        assertThat(lastMessage(Topics.AUCTION_RESULTS, "cell-b", LrpsPlaced.class).placements())
                .extracting(LrpsPlaced.Placement::index).containsExactly(2);

        assertThat(lifecycle.place(UUID.randomUUID(), Map.of(key(0), "cell-a"), Actor.service("auctioneer")))
                .containsEntry(key(0), Outcome.NO_OP);
        assertThat(records.messages(Topics.AUCTION_RESULTS, "cell-a", LrpsPlaced.class)
                .stream().filter(m -> m.placements().stream().anyMatch(p -> p.processGuid().equals(guid))))
                .as("a repeated placement sends nothing").hasSize(1);
    }

    @Test
    void failPlacementKeepsTheInstanceUnclaimedWithTheReason() {
        lifecycle.createUnclaimed(guid, "d1", List.of(0), "desired", CONVERGER);
        lifecycle.place(UUID.randomUUID(), Map.of(key(0), "cell-a"), Actor.service("auctioneer"));
        assertThat(lifecycle.failPlacement(Map.of(key(0), "insufficient resources: memory"), Actor.cell("cell-a")))
                .containsEntry(key(0), Outcome.CHANGED);
        assertThat(lifecycle.failPlacement(Map.of(key(0), "insufficient resources: memory"), Actor.cell("cell-a")))
                .containsEntry(key(0), Outcome.NO_OP);

        ActualLrp row = actuals.findById(key(0)).orElseThrow();
        assertThat(row.state()).isEqualTo(ActualLrpState.UNCLAIMED);
        assertThat(row.placementError()).isEqualTo("insufficient resources: memory");
        assertThat(row.placement().cellId()).isNull();
        assertThat(records.audit(guid)).as("a placement is not a change clients see; failing it is")
                .extracting(Audit::reason).containsExactly("desired", "insufficient resources: memory");
    }

    @Test
    void claimIsIdempotentForItsOwnerAndRejectedForAnyOther() {
        lifecycle.createUnclaimed(guid, "d1", List.of(0), "desired", CONVERGER);
        InstanceOwner owner = InstanceOwner.of("ig-1", "cell-a");
        lifecycle.claim(key(0), owner, Actor.cell("cell-a"));
        lifecycle.claim(key(0), owner, Actor.cell("cell-a"));
        assertThatThrownBy(() -> lifecycle.claim(key(0), InstanceOwner.of("ig-2", "cell-b"), Actor.cell("cell-b")))
                .isInstanceOf(IllegalTransitionException.class);
        assertThat(lifecycle.claim(Map.of(key(0), InstanceOwner.of("ig-2", "cell-b")), Actor.cell("cell-b")))
                .extractingByKey(key(0)).extracting(Outcome::kind).isEqualTo(Outcome.Kind.REJECTED);
        assertThatThrownBy(() -> lifecycle.claim(key(5), owner, Actor.cell("cell-a")))
                .isInstanceOf(ActualLrpNotFoundException.class);

        ActualLrp row = actuals.findById(key(0)).orElseThrow();
        assertThat(row.owner()).isEqualTo(owner);
        assertThat(row.version()).isEqualTo(1);
        assertThat(records.audit(guid)).last().satisfies(a -> {
            assertThat(a.from()).isEqualTo("UNCLAIMED");
            assertThat(a.to()).isEqualTo("CLAIMED");
            assertThat(a.actorService()).isEqualTo("rep");
            assertThat(a.actorCell()).isEqualTo("cell-a");
            assertThat(a.version()).isEqualTo(1);
        });
    }

    @Test
    void claimAndStartABatchInOneTransactionLoadingAllRecordsInOneQuery() {
        List<Integer> indices = IntStream.range(0, 50).boxed().toList();
        lifecycle.createUnclaimed(guid, "d1", indices, "desired", CONVERGER);
        Map<ActualLrpKey, InstanceOwner> owners = new LinkedHashMap<>();
        indices.forEach(i -> owners.put(key(i), InstanceOwner.of("ig-" + i, "cell-a")));
        StatementCounter.reset();

        assertThat(lifecycle.claim(owners, Actor.cell("cell-a")).values()).containsOnly(Outcome.CHANGED);

        assertThat(StatementCounter.prepared()).as("one select of every record, one update of them all, one batch "
                + "of audit rows (which are the events)").isEqualTo(3);
        List<StartedInstance> started = indices.stream()
                .map(i -> new StartedInstance(key(i), "d1", owners.get(key(i)), NET)).toList();
        assertThat(lifecycle.start(started, Actor.cell("cell-a")).values()).containsOnly(Outcome.CHANGED);
        assertThat(actuals.findByProcessGuid(guid)).extracting(ActualLrp::state).containsOnly(ActualLrpState.RUNNING);
    }

    /**
     * A start (CLAIMED -> RUNNING on the cell that claimed) changes no indexed column, so PostgreSQL rewrites the row on
     * its page without an index entry (a heap-only tuple); placing and claiming change indexed cells and cannot. Fails
     * when a state index comes back, or when pages are packed too full to take the new version.
     */
    @Test
    void aStartRewritesTheRowInPlaceWithoutTouchingAnIndex() {
        long hotBefore = rowsRewrittenInPlace();
        lifecycle.createUnclaimed(guid, "d1", List.of(0), "desired", CONVERGER);
        InstanceOwner owner = InstanceOwner.of("ig-1", "cell-a");
        assertThat(lifecycle.place(UUID.randomUUID(), Map.of(key(0), "cell-a"), Actor.service("auctioneer")))
                .containsEntry(key(0), Outcome.CHANGED);
        lifecycle.claim(key(0), owner, Actor.cell("cell-a"));
        lifecycle.start(new StartedInstance(key(0), "d1", owner, NET), Actor.cell("cell-a"));

        // each backend reports its counts when it goes idle, at most once a second
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(rowsRewrittenInPlace() - hotBefore)
                .as("heap-only updates of actual_lrps").isGreaterThanOrEqualTo(1));
    }

    private long rowsRewrittenInPlace() {
        return jdbc.queryForObject("SELECT n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'actual_lrps'",
                Long.class);
    }

    @Test
    void startWithNoRecordCreatesItRunning() {
        InstanceOwner owner = InstanceOwner.of("ig-1", "cell-a");
        lifecycle.start(new StartedInstance(key(0), "d1", owner, NET), Actor.cell("cell-a"));

        ActualLrp row = actuals.findById(key(0)).orElseThrow();
        assertThat(row.state()).isEqualTo(ActualLrpState.RUNNING);
        assertThat(row.owner()).isEqualTo(owner);
        assertThat(row.netInfo()).isEqualTo(NET);
        assertThat(records.audit(guid)).singleElement().satisfies(a -> {
            assertThat(a.type()).isEqualTo(LifecycleEvent.ACTUAL_LRP_CREATED);
            assertThat(a.to()).isEqualTo("RUNNING");
            assertThat(a.actorCell()).isEqualTo("cell-a");
        });
        assertThat(records.messages(Topics.START_REQUESTS, guid, LrpStartRequested.class)).isEmpty();
    }

    @Test
    void startOverAnotherCellsRunningInstanceIsRejected() {
        running(0, InstanceOwner.of("ig-1", "cell-a"));
        assertThatThrownBy(() -> lifecycle.start(new StartedInstance(key(0), "d1", InstanceOwner.of("ig-2", "cell-b"),
                NET), Actor.cell("cell-b"))).isInstanceOf(IllegalTransitionException.class);
        assertThat(actuals.findById(key(0)).orElseThrow().cellId()).isEqualTo("cell-a");
    }

    @Test
    void firstTwoCrashesRestartAtOnceAndTheThirdWaits() {
        InstanceOwner owner = InstanceOwner.of("ig-1", "cell-a");
        for (int crash = 1; crash <= 2; crash++) {
            running(0, owner);
            assertThat(lifecycle.crash(key(0), owner, "exited with code 1", Actor.cell("cell-a")))
                    .isEqualTo(ActualLrpState.UNCLAIMED);
        }
        running(0, owner);
        assertThat(lifecycle.crash(key(0), owner, "exited with code 1", Actor.cell("cell-a")))
                .isEqualTo(ActualLrpState.CRASHED);

        ActualLrp row = actuals.findById(key(0)).orElseThrow();
        assertThat(row.crashCount()).isEqualTo(3);
        assertThat(row.owner().isEmpty()).isTrue();
        assertThat(records.messages(Topics.START_REQUESTS, guid, LrpStartRequested.class))
                .extracting(LrpStartRequested::reason).containsExactly("desired", "restart after crash",
                        "restart after crash");
        assertThat(records.audit(guid)).filteredOn(a -> a.type().equals(LifecycleEvent.ACTUAL_LRP_CRASHED))
                .extracting(Audit::from, Audit::to).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("RUNNING", "UNCLAIMED"),
                        org.assertj.core.groups.Tuple.tuple("RUNNING", "UNCLAIMED"),
                        org.assertj.core.groups.Tuple.tuple("RUNNING", "CRASHED"));
        List<LifecycleEvent> events = records.messages(Topics.LIFECYCLE_EVENTS, guid, LifecycleEvent.class);
        LifecycleEvent crashed = events.get(events.size() - 2);
        assertThat(crashed.type()).isEqualTo(LifecycleEvent.ACTUAL_LRP_CRASHED);
        assertThat(crashed.after().get("next_restart_at").asLong())
                .isEqualTo(clock.instant().plusSeconds(30).toEpochMilli());
        assertThat(crashed.before().get("state").asString()).isEqualTo("RUNNING");
        LifecycleEvent changed = events.get(events.size() - 1);
        assertThat(changed.type()).as("a client following changes sees the crash too (as Diego announces it)")
                .isEqualTo(LifecycleEvent.ACTUAL_LRP_CHANGED);
        assertThat(changed.before()).isEqualTo(crashed.before());
        assertThat(changed.after()).isEqualTo(crashed.after());
    }

    @Test
    void crashAfterALongRunCountsFromOneAgain() {
        InstanceOwner owner = InstanceOwner.of("ig-1", "cell-a");
        running(0, owner);
        lifecycle.crash(key(0), owner, "exited with code 1", Actor.cell("cell-a"));
        running(0, owner);
        clock.advance(Duration.ofMinutes(6));
        lifecycle.crash(key(0), owner, "exited with code 1", Actor.cell("cell-a"));
        assertThat(actuals.findById(key(0)).orElseThrow().crashCount()).isEqualTo(1);
    }

    @Test
    void aCrashReasonPostgresCannotStoreIsStoredCleaned() {
        InstanceOwner owner = InstanceOwner.of("ig-1", "cell-a");
        running(0, owner);

        lifecycle.crash(key(0), owner, "http check failed: \u0000\uD800", Actor.cell("cell-a"));

        assertThat(actuals.findById(key(0)).orElseThrow().crashReason()).isEqualTo("http check failed: \uFFFD\uFFFD");
        assertThat(records.audit(guid)).filteredOn(a -> a.type().equals(LifecycleEvent.ACTUAL_LRP_CRASHED))
                .singleElement().satisfies(a -> assertThat(a.reason()).isEqualTo("http check failed: \uFFFD\uFFFD"));
    }

    @Test
    void crashByAnotherIncarnationIsRejectedAndChangesNothing() {
        running(0, InstanceOwner.of("ig-1", "cell-a"));
        assertThatThrownBy(() -> lifecycle.crash(key(0), InstanceOwner.of("ig-2", "cell-a"), "exit", Actor.cell("a")))
                .isInstanceOf(IllegalTransitionException.class);
        assertThat(actuals.findById(key(0)).orElseThrow().state()).isEqualTo(ActualLrpState.RUNNING);
        assertThat(records.audit(guid)).noneMatch(a -> a.type().equals(LifecycleEvent.ACTUAL_LRP_CRASHED));
    }

    @Test
    void removeDeletesOnlyTheOwnersRecord() {
        InstanceOwner owner = InstanceOwner.of("ig-1", "cell-a");
        running(0, owner);
        assertThat(lifecycle.remove(key(0), InstanceOwner.of("ig-9", "cell-b"), "no container", Actor.cell("cell-b"))
                .kind()).isEqualTo(Outcome.Kind.REJECTED);
        assertThat(actuals.findById(key(0))).isPresent();

        assertThat(lifecycle.remove(key(0), owner, "stopped", Actor.cell("cell-a"))).isEqualTo(Outcome.CHANGED);
        assertThat(actuals.findById(key(0))).isEmpty();
        assertThat(lifecycle.remove(key(0), owner, "stopped", Actor.cell("cell-a"))).isEqualTo(Outcome.NO_OP);
        assertThat(records.audit(guid)).last().satisfies(a -> {
            assertThat(a.type()).isEqualTo(LifecycleEvent.ACTUAL_LRP_REMOVED);
            assertThat(a.from()).isEqualTo("RUNNING");
            assertThat(a.to()).isNull();
        });
        assertThat(lastMessage(Topics.LIFECYCLE_EVENTS, guid, LifecycleEvent.class).after()).isNull();
    }

    @Test
    void retireDeletesUnownedRecordsAndAsksLiveCellsToStopTheirs() {
        lifecycle.createUnclaimed(guid, "d1", List.of(0), "desired", CONVERGER);
        String liveCell = "cell-live-" + UUID.randomUUID();
        heartbeat(liveCell);
        running(1, InstanceOwner.of("ig-1", liveCell));
        running(2, InstanceOwner.of("ig-2", "cell-gone-" + UUID.randomUUID()));

        Map<ActualLrpKey, Outcome> outcomes = lifecycle.retire(List.of(key(0), key(1), key(2), key(3), key(1)), "scaled down",
                Actor.service("receptor"));

        assertThat(outcomes).containsEntry(key(0), Outcome.CHANGED).containsEntry(key(1), Outcome.CHANGED)
                .containsEntry(key(2), Outcome.CHANGED).containsEntry(key(3), Outcome.NO_OP);
        assertThat(actuals.findByProcessGuid(guid)).extracting(ActualLrp::index).containsExactly(1);
        assertThat(actuals.findById(key(1)).orElseThrow().stopRequested())
                .as("the mark the cell's sync repeats a lost stop from").isEqualTo("scaled down");
        assertThat(records.messages(Topics.STOP_REQUESTS, liveCell, LrpStopRequested.class)).singleElement()
                .satisfies(stop -> {
                    assertThat(stop.processGuid()).isEqualTo(guid);
                    assertThat(stop.index()).isEqualTo(1);
                    assertThat(stop.instanceGuid()).isEqualTo("ig-1");
                    assertThat(stop.reason()).isEqualTo("scaled down");
                });
        assertThat(records.audit(guid)).filteredOn(a -> a.type().equals(LifecycleEvent.ACTUAL_LRP_REMOVED))
                .extracting(Audit::index).containsExactlyInAnyOrder(0, 2);
        assertThat(records.audit(guid)).as("who asked the live cell to stop, and why, is on record")
                .filteredOn(a -> a.type().equals(LifecycleEvent.ACTUAL_LRP_STOP_REQUESTED)).singleElement()
                .satisfies(a -> {
                    assertThat(a.index()).isEqualTo(1);
                    assertThat(a.reason()).isEqualTo("scaled down");
                    assertThat(a.actorService()).isEqualTo("receptor");
                    assertThat(a.from()).isEqualTo("RUNNING");
                });
        assertThat(records.messages(Topics.LIFECYCLE_EVENTS, guid, LifecycleEvent.class))
                .as("a stop request is not a lifecycle event").extracting(LifecycleEvent::type)
                .doesNotContain(LifecycleEvent.ACTUAL_LRP_STOP_REQUESTED);
    }

    @Test
    void aStopRequestIsNeverAuditedAfterARemovalThatCommittedWhileTheRetireWasDeciding() throws Exception {
        String liveCell = "cell-live-" + UUID.randomUUID();
        heartbeat(liveCell);
        InstanceOwner owner = InstanceOwner.of("ig-1", liveCell);
        running(1, owner);
        running(2, InstanceOwner.of("ig-2", "cell-gone-" + UUID.randomUUID()));
        // Index 1 was asked to stop before (its record carries the mark): asking again writes no record, only the audit
        // row, which must still follow the order of the changes it describes (the converger repeats rule 5 each pass).
        lifecycle.retire(List.of(key(1)), "scaled down", CONVERGER);
        // The retire reads both records, then blocks deleting index 2 (held by this test) before it writes anything.
        DataSource dataSource = jdbc.getDataSource();
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (Statement s = holder.createStatement()) {
                s.execute("SELECT 1 FROM actual_lrps WHERE process_guid = '" + guid + "' AND instance_index = 2 "
                        + "FOR UPDATE");
            }
            CompletableFuture<Map<ActualLrpKey, Outcome>> retire = CompletableFuture.supplyAsync(
                    () -> lifecycle.retire(List.of(key(1), key(2)), "scaled down", CONVERGER));
            await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject("""
                    SELECT count(*) FROM pg_stat_activity
                    WHERE wait_event_type = 'Lock' AND query LIKE '%DELETE FROM actual_lrps%'""", Long.class) > 0);
            // Meanwhile the cell stops index 1 and removes its record.
            assertThat(CompletableFuture.supplyAsync(() -> lifecycle.remove(key(1), owner, "stopped",
                    Actor.cell(liveCell))).get(30, TimeUnit.SECONDS)).isEqualTo(Outcome.CHANGED);
            holder.rollback();
            assertThat(retire.get(30, TimeUnit.SECONDS)).containsEntry(key(2), Outcome.CHANGED);
        }

        assertThat(records.audit(guid)).as("the audit trail of index 1 ends with its removal")
                .filteredOn(a -> Integer.valueOf(1).equals(a.index())).last()
                .extracting(Audit::type).isEqualTo(LifecycleEvent.ACTUAL_LRP_REMOVED);
        assertThat(actuals.findByProcessGuid(guid)).isEmpty();
    }

    @Test
    void unclaimClearsTheOwnerAndRequestsAnAuction() {
        running(0, InstanceOwner.of("ig-1", "cell-a"));
        assertThat(lifecycle.unclaim(List.of(key(0), key(4), key(0)), "cell lost", CONVERGER))
                .containsEntry(key(0), Outcome.CHANGED).containsEntry(key(4), Outcome.NOT_FOUND);

        ActualLrp row = actuals.findById(key(0)).orElseThrow();
        assertThat(row.state()).isEqualTo(ActualLrpState.UNCLAIMED);
        assertThat(row.owner().isEmpty()).isTrue();
        assertThat(row.netInfo()).isNull();
        assertThat(lastMessage(Topics.START_REQUESTS, guid, LrpStartRequested.class))
                .satisfies(m -> assertThat(m.indices()).containsExactly(0))
                .satisfies(m -> assertThat(m.reason()).isEqualTo("cell lost"));
        assertThat(records.audit(guid)).last().extracting(Audit::from, Audit::to, Audit::version)
                .containsExactly("RUNNING", "UNCLAIMED", row.version());
        assertThat(records.audit(guid)).as("a key named twice is unclaimed once")
                .filteredOn(a -> "UNCLAIMED".equals(a.to()) && "RUNNING".equals(a.from())).hasSize(1);
    }

    @Test
    void anUnclaimPlannedForOneStateLeavesAnInstanceThatMovedOn() {
        running(0, InstanceOwner.of("ig-1", "cell-a"));
        long version = actuals.findById(key(0)).orElseThrow().version();

        Outcome outcome = lifecycle.unclaim(List.of(key(0)), EnumSet.of(ActualLrpState.UNCLAIMED),
                "converger: unclaimed too long", CONVERGER).get(key(0));

        assertThat(outcome.kind()).isEqualTo(Outcome.Kind.REJECTED);
        assertThat(outcome.message()).contains("RUNNING");
        ActualLrp row = actuals.findById(key(0)).orElseThrow();
        assertThat(row.state()).isEqualTo(ActualLrpState.RUNNING);
        assertThat(row.version()).as("nothing written").isEqualTo(version);
        assertThat(lifecycle.unclaim(List.of(key(0)), EnumSet.of(ActualLrpState.RUNNING), "cell lost",
                CONVERGER)).containsEntry(key(0), Outcome.CHANGED);
    }

    private ActualLrpKey key(int index) {
        return ActualLrpKey.of(guid, index);
    }

    /** Brings instance {@code index} to RUNNING through the lifecycle (creating it when needed). */
    private void running(int index, InstanceOwner owner) {
        if (actuals.findById(key(index)).isEmpty()) {
            lifecycle.createUnclaimed(guid, "d1", List.of(index), "desired", CONVERGER);
        }
        lifecycle.claim(key(index), owner, Actor.cell(owner.cellId()));
        lifecycle.start(new StartedInstance(key(index), "d1", owner, NET), Actor.cell(owner.cellId()));
    }

    @Test
    void evacuatingARunningInstanceKeepsATwinServingWhileTheSlotIsAuctionedAgain() {
        heartbeat("cell-drain");
        InstanceOwner owner = InstanceOwner.of("ig-1", "cell-drain");
        running(0, owner);
        Actor rep = Actor.cell("cell-drain");

        assertThat(lifecycle.evacuate(Map.of(key(0), owner), rep)).containsEntry(key(0), Outcome.CHANGED);
        assertThat(lifecycle.evacuate(Map.of(key(0), owner), rep)).as("the drain repeats every sync")
                .containsEntry(key(0), Outcome.NO_OP);

        assertThat(actuals.findById(key(0)).orElseThrow().state()).isEqualTo(ActualLrpState.UNCLAIMED);
        ActualLrp twin = actuals.findEvacuating(key(0)).orElseThrow();
        assertThat(twin.owner()).isEqualTo(owner);
        assertThat(twin.netInfo()).isEqualTo(NET);
        assertThat(lastMessage(Topics.START_REQUESTS, guid, LrpStartRequested.class).indices()).containsExactly(0);
        List<LifecycleEvent> events = records.messages(Topics.LIFECYCLE_EVENTS, guid, LifecycleEvent.class);
        assertThat(events.get(events.size() - 2).type()).isEqualTo(LifecycleEvent.ACTUAL_LRP_CREATED);
        assertThat(events.get(events.size() - 2).after().get("evacuating").asBoolean()).isTrue();
        assertThat(events.get(events.size() - 1).after().get("state").asString()).isEqualTo("UNCLAIMED");

        // the replacement runs elsewhere; the draining cell stops its container and removes what it holds: the twin
        running(0, InstanceOwner.of("ig-2", "cell-other"));
        assertThat(lifecycle.remove(key(0), owner, "container stopped", rep)).isEqualTo(Outcome.CHANGED);
        assertThat(actuals.findEvacuating(key(0))).isEmpty();
        assertThat(actuals.findById(key(0)).orElseThrow().owner().cellId()).isEqualTo("cell-other");
    }

    @Test
    void aTwinWhoseContainerExitsIsRemovedWithoutCrashingTheSlot() {
        InstanceOwner owner = InstanceOwner.of("ig-1", "cell-drain");
        running(0, owner);
        lifecycle.evacuate(Map.of(key(0), owner), Actor.cell("cell-drain"));
        long version = actuals.findById(key(0)).orElseThrow().version();

        assertThat(lifecycle.crashAll(Map.of(key(0), new io.drover.model.lrp.CrashReport(owner, "exited with code 1")),
                Actor.cell("cell-drain"))).containsEntry(key(0), Outcome.CHANGED);

        assertThat(actuals.findEvacuating(key(0))).isEmpty();
        ActualLrp slot = actuals.findById(key(0)).orElseThrow();
        assertThat(slot.version()).isEqualTo(version);
        assertThat(slot.crashCount()).isZero();
    }

    @Test
    void theTwinsOfACellThatIsGoneAreRemovedAndThoseOfALiveOneKept() {
        String gone = "cell-gone-" + UUID.randomUUID();
        String live = "cell-live-" + UUID.randomUUID();
        heartbeat(gone);
        heartbeat(live);
        running(0, InstanceOwner.of("ig-1", gone));
        running(1, InstanceOwner.of("ig-2", live));
        lifecycle.evacuate(Map.of(key(0), InstanceOwner.of("ig-1", gone), key(1), InstanceOwner.of("ig-2", live)),
                Actor.cell(gone));
        jdbc.update("UPDATE cells SET expires_at = ? WHERE cell_id = ?",
                java.sql.Timestamp.from(clock.instant().minusSeconds(1)), gone);

        assertThat(lifecycle.removeEvacuatingOfLostCells(1_000, "cell presence expired", CONVERGER))
                .containsEntry(key(0), Outcome.CHANGED).doesNotContainKey(key(1));

        assertThat(actuals.findEvacuating(key(0))).isEmpty();
        assertThat(actuals.findEvacuating(key(1))).isPresent();
        assertThat(records.audit(guid)).filteredOn(a -> Integer.valueOf(0).equals(a.index())).last()
                .satisfies(a -> {
                    assertThat(a.type()).isEqualTo(LifecycleEvent.ACTUAL_LRP_REMOVED);
                    assertThat(a.reason()).isEqualTo("cell presence expired");
                    assertThat(a.actorService()).isEqualTo("converger");
                });
    }

    @Test
    void aDrainHandsOverOnlyWhatItsCellStillOwns() {
        InstanceOwner owner = InstanceOwner.of("ig-1", "cell-drain");
        running(0, owner);
        lifecycle.crashAll(Map.of(key(0), new io.drover.model.lrp.CrashReport(owner, "exited with code 1")),
                Actor.cell("cell-drain"));
        ActualLrp crashed = actuals.findById(key(0)).orElseThrow();

        assertThat(lifecycle.evacuate(Map.of(key(0), owner), Actor.cell("cell-drain")).get(key(0)).kind())
                .isEqualTo(Outcome.Kind.REJECTED);

        assertThat(actuals.findById(key(0)).orElseThrow().version()).as("the crash stands").isEqualTo(crashed.version());
        assertThat(actuals.findEvacuating(key(0))).isEmpty();
    }

    @Test
    void retiringASlotStopsItsTwinToo() {
        heartbeat("cell-drain");
        InstanceOwner owner = InstanceOwner.of("ig-1", "cell-drain");
        running(0, owner);
        lifecycle.evacuate(Map.of(key(0), owner), Actor.cell("cell-drain"));

        assertThat(lifecycle.retire(List.of(key(0)), "scaled down", Actor.service("receptor")))
                .containsEntry(key(0), Outcome.CHANGED);

        assertThat(actuals.findById(key(0))).as("the unclaimed slot is deleted").isEmpty();
        assertThat(records.messages(Topics.STOP_REQUESTS, "cell-drain", LrpStopRequested.class))
                .filteredOn(stop -> stop.processGuid().equals(guid)).singleElement()
                .satisfies(stop -> assertThat(stop.instanceGuid()).isEqualTo("ig-1"));
    }

    private void heartbeat(String cellId) {
        cells.heartbeat(new CellRegistration(cellId, "z1", "10.0.0.1", new Resources(1024, 1024, 10),
                List.of("preloaded:host"), List.of(), List.of()), Duration.ofSeconds(30));
    }

    private <T> T lastMessage(String topic, String key, Class<T> type) {
        List<T> messages = records.messages(topic, key, type);
        assertThat(messages).as("messages on %s for %s", topic, key).isNotEmpty();
        return messages.get(messages.size() - 1);
    }
}
