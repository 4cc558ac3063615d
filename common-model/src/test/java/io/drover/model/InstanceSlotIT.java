package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.deployment.Amount;
import io.drover.model.deployment.Deployment;
import io.drover.model.deployment.DeploymentLifecycle;
import io.drover.model.deployment.Strategy;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.ClaimRequest;
import io.drover.model.lrp.DefinitionId;
import io.drover.model.lrp.Deployable;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.DesiredLrpUpdate;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.Outcome;
import io.drover.model.lrp.RollRequest;
import io.drover.model.lrp.RunAction;
import io.drover.model.lrp.StartedInstance;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.messaging.Topics;
import io.drover.model.placement.Placement;
import io.drover.test.WithDroverInfrastructure;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The instance slot tells the truth across its record and its twin (issue 35): what a claim, a start, a deployer's
 * write and a repair may do when the slot moved on since they were decided, and how a twin's stop outlives a lost
 * message. Each case is one of the lies a review found, end to end through the lifecycle on PostgreSQL.
 */
@SpringBootTest
@WithDroverInfrastructure
class InstanceSlotIT {

    static final Actor USER = Actor.service("receptor");
    static final Actor DEPLOYER = Actor.service("deployer");
    static final NetInfo NET = new NetInfo("10.0.0.1", List.of(new NetInfo.PortMapping(8080, 61000)));
    static final Strategy STRATEGY = new Strategy(Amount.parse("1"), Amount.parse("0"), Duration.ofSeconds(1),
            Duration.ofSeconds(30), true, 0);

    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    ActualLrpLifecycle actual;
    @Autowired
    DeploymentLifecycle deployments;
    @Autowired
    ActualLrpRepository actuals;
    @Autowired
    CellPresence cells;
    @Autowired
    JdbcTemplate jdbc;

    String guid;
    String cell;
    ActualLrpKey zero;

    @BeforeEach
    void oneRunningInstance() {
        guid = "slot-" + UUID.randomUUID();
        cell = "cell-" + UUID.randomUUID();
        zero = ActualLrpKey.of(guid, 0);
        cells.heartbeat(new CellRegistration(cell, "z1", "10.0.0.1", new Resources(1024, 1024, 10),
                List.of("preloaded:host"), List.of(), List.of()), Duration.ofMinutes(1));
        desired.desire(definition(1), USER);
        run(zero, "old-0");
    }

    /**
     * Defect 1: a placement made for version 1 that reaches its cell after the deployer rolled the slot to version 2
     * (and the auction placed the slot on the same cell again) must not claim it: version 1 would run while the record,
     * the counts and the deployment say 2. Before the fix the claim checked state, cell and epoch only, and succeeded.
     */
    @Test
    void aPlacementMadeForTheOldVersionDoesNotClaimASlotRolledToANewOne() {
        UUID epoch = actuals.findById(zero).orElseThrow().epoch();
        startDeploymentToVersion2();
        assertThat(actual.roll(List.of(zero), 2, true, "deployment", DEPLOYER)).containsEntry(zero, Outcome.CHANGED);
        actual.place(UUID.randomUUID(), Map.of(zero, cell), Actor.service("auctioneer"));

        LrpsPlaced.Placement sent = new Records(jdbc).messages(Topics.AUCTION_RESULTS, cell, LrpsPlaced.class).stream()
                .flatMap(m -> m.placements().stream()).filter(p -> p.processGuid().equals(guid)).reduce((a, b) -> b)
                .orElseThrow();
        assertThat(sent.definitionVersion()).isEqualTo(2);
        assertThat(sent.lrpEpoch()).as("the life of the LRP the placement is for")
                .isEqualTo(desired.snapshot(guid).orElseThrow().modificationTag().epoch());

        InstanceOwner late = InstanceOwner.of("late-v1", cell);
        Outcome stale = actual.claimAll(Map.of(zero, new ClaimRequest(late, new Placement(cell, epoch, 1))), USER)
                .get(zero);
        assertThat(stale.kind()).isEqualTo(Outcome.Kind.REJECTED);
        assertThat(stale.message()).contains("placed for definition version 1, the slot wants 2");
        assertThat(actuals.findById(zero).orElseThrow().state()).isEqualTo(ActualLrpState.UNCLAIMED);

        InstanceOwner current = InstanceOwner.of("new-0", cell);
        assertThat(actual.claimAll(Map.of(zero, new ClaimRequest(current, new Placement(cell, epoch, 2))), USER))
                .containsEntry(zero, Outcome.CHANGED);
    }

    /** Defect 1, the start of an adopted container: one running version 1 does not take a slot rolled to 2. */
    @Test
    void aContainerOfTheOldVersionDoesNotTakeARolledSlotByStarting() {
        startDeploymentToVersion2();
        actual.roll(List.of(zero), 2, false, "deployment", DEPLOYER); // RUNNING without a surge: asked to stop
        actual.removeAll(Map.of(zero, InstanceOwner.of("old-0", cell)), "container stopped", USER);
        actual.createMissing(guid, "d1", List.of(0), "deployment", DEPLOYER);
        UUID life = desired.snapshot(guid).orElseThrow().modificationTag().epoch();

        InstanceOwner adopted = InstanceOwner.of("adopted-v1", cell);
        Outcome outcome = actual.start(List.of(new StartedInstance(zero, "d1", adopted, NET, new DefinitionId(life, 1))),
                USER).get(zero);
        assertThat(outcome.kind()).isEqualTo(Outcome.Kind.REJECTED);
        assertThat(actuals.findById(zero).orElseThrow()).satisfies(r -> {
            assertThat(r.state()).isEqualTo(ActualLrpState.UNCLAIMED);
            assertThat(r.definitionVersion()).isEqualTo(2);
        });
        assertThat(actual.start(List.of(new StartedInstance(zero, "d1", adopted, NET, new DefinitionId(life, 2))),
                USER)).containsEntry(zero, Outcome.CHANGED);
    }

    /** Defect 2's model half: a container of an earlier life of the LRP (deleted, desired again) takes no slot. */
    @Test
    void aContainerOfAnEarlierLifeOfTheLrpDoesNotTakeItsSlot() {
        UUID first = desired.snapshot(guid).orElseThrow().modificationTag().epoch();
        desired.remove(guid, USER);
        actual.removeAll(Map.of(zero, InstanceOwner.of("old-0", cell)), "container stopped", USER);
        desired.desire(definition(1), USER);

        Outcome outcome = actual.start(List.of(new StartedInstance(zero, "d1", InstanceOwner.of("old-life", cell), NET,
                new DefinitionId(first, 1))), USER).get(zero);
        assertThat(outcome.kind()).isEqualTo(Outcome.Kind.REJECTED);
        assertThat(outcome.message()).contains("earlier life");
    }

    /**
     * Defect 5: the deployer decides from a read and writes later. A roll decided while the slot was CLAIMED (replace in
     * place: stop it) must not stop the instance that turned RUNNING meanwhile; no roll goes on after a cancel.
     */
    @Test
    void theDeployersRollsHoldOnlyForTheRecordAndTheDeploymentAsTheyWereRead() {
        Deployment d = startDeploymentToVersion2();
        ActualLrp read = actuals.findById(zero).orElseThrow();
        actual.crash(zero, InstanceOwner.of("old-0", cell), "exited", USER); // the slot moves on after the read

        Outcome stale = actual.roll(Map.of(zero, new RollRequest(read.version(), d.id())), 2, false, "deployment",
                DEPLOYER).get(zero);
        assertThat(stale.kind()).isEqualTo(Outcome.Kind.REJECTED);
        assertThat(stale.message()).contains("changed since the deployer read it");

        ActualLrp now = actuals.findById(zero).orElseThrow();
        deployments.cancel(guid, d.id(), "alice", USER);
        Outcome cancelled = actual.roll(Map.of(zero, new RollRequest(now.version(), d.id())), 2, false,
                "deployment", DEPLOYER).get(zero);
        assertThat(cancelled.kind()).isEqualTo(Outcome.Kind.REJECTED);
        assertThat(cancelled.message()).contains("is not running");
        assertThat(actuals.findById(zero).orElseThrow().definitionVersion()).isEqualTo(1);
    }

    /** Defect 5: a twin is released only while the slot's new instance still runs the target version. */
    @Test
    void aTwinWhoseNewInstanceCrashedMeanwhileKeepsServing() {
        startDeploymentToVersion2();
        actual.roll(List.of(zero), 2, true, "deployment", DEPLOYER);
        run(zero, "new-0");
        actual.crash(zero, InstanceOwner.of("new-0", cell), "exited", USER);

        Outcome outcome = actual.releaseDeploymentTwins(Map.of(zero, 2), "new instance healthy", DEPLOYER).get(zero);
        assertThat(outcome.kind()).isEqualTo(Outcome.Kind.REJECTED);
        assertThat(actuals.findEvacuating(zero).orElseThrow().stopRequested()).isNull();
    }

    /**
     * Defect 3: a retired slot's twin keeps its stop as a mark until its cell removes it; before, the stop travelled
     * only as a message, and a lost one left the old instance serving with nothing to repeat it.
     */
    @Test
    void aRetiredSlotsTwinCarriesItsStopUntilItsCellRemovesIt() {
        actual.evacuate(Map.of(zero, InstanceOwner.of("old-0", cell)), Actor.cell(cell));
        desired.update(guid, new DesiredLrpUpdate(0, null, null), List.of(), USER);

        assertThat(actuals.findById(zero)).as("the unclaimed record goes at once").isEmpty();
        assertThat(actuals.findEvacuating(zero).orElseThrow().stopRequested()).isEqualTo("scaled down");
        assertThat(new Records(jdbc).messages(Topics.STOP_REQUESTS, cell, LrpStopRequested.class))
                .anySatisfy(m -> assertThat(m.instanceGuid()).isEqualTo("old-0"));

        actual.removeAll(Map.of(zero, InstanceOwner.of("old-0", cell)), "container stopped", Actor.cell(cell));
        assertThat(actuals.findEvacuating(zero)).isEmpty();
    }

    /** Defect 3: a twin whose slot has no record and is not desired (a stop lost before marks existed) is reaped. */
    @Test
    void anOrphanTwinIsRetired() {
        jdbc.update("INSERT INTO domains (name) VALUES ('d1') ON CONFLICT DO NOTHING");
        actual.evacuate(Map.of(zero, InstanceOwner.of("old-0", cell)), Actor.cell(cell));
        // what a retire that predates durable twin stops left: the record gone, the twin unmarked
        jdbc.update("DELETE FROM actual_lrps WHERE process_guid = ?", guid);
        jdbc.update("UPDATE desired_lrps SET instances = 0 WHERE process_guid = ?", guid);

        assertThat(actual.retireOrphanTwins(100, "no record wants it", Actor.service("converger")))
                .containsEntry(zero, Outcome.CHANGED);
        assertThat(actuals.findEvacuating(zero).orElseThrow().stopRequested()).isEqualTo("no record wants it");
        assertThat(actual.retireOrphanTwins(100, "no record wants it", Actor.service("converger")))
                .as("asked already: asked again, nothing written").containsEntry(zero, Outcome.CHANGED);
    }

    /**
     * Defect 6: converger rule 1 re-reads the instance count when it writes; without a lock on the desired row, a repair
     * racing a delete that has not committed yet slipped its instances in beside it, and they outlived the LRP.
     */
    @Test
    void aMissingIndexRepairWaitsForADeleteInFlightAndCreatesNothing() throws Exception {
        ActualLrpKey one = ActualLrpKey.of(guid, 1);
        jdbc.update("UPDATE desired_lrps SET instances = 2 WHERE process_guid = ?", guid);
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(jdbc.getDataSource()));
        CountDownLatch deleting = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        CompletableFuture<Void> delete = CompletableFuture.runAsync(() -> tx.executeWithoutResult(s -> {
            jdbc.update("DELETE FROM desired_lrps WHERE process_guid = ?", guid); // holds the row lock
            deleting.countDown();
            awaitLatch(commit);
        }));
        assertThat(deleting.await(30, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<List<Integer>> repair = CompletableFuture.supplyAsync(() -> actual.createMissing(guid, "d1",
                List.of(1), "missing index", Actor.service("converger")));
        await().atMost(Duration.ofSeconds(30)).until(() -> repair.isDone() || waitsOnALock());
        commit.countDown();
        delete.get(30, TimeUnit.SECONDS);

        assertThat(repair.get(30, TimeUnit.SECONDS)).as("the LRP is gone when the repair may write").isEmpty();
        assertThat(actuals.findById(one)).isEmpty();
    }

    /**
     * Issue 36's anomaly D: the relay publishes in transaction-id order, and an id is taken at a transaction's first
     * write, not at its commit. A desire that wrote the desired row before it read the slot took an id before the rep's
     * removal of the slot's old record committed, then read the slot empty and created the new record: the stream
     * showed the new record's creation before the removal it depended on. Every lifecycle transaction now reads the
     * slots it changes before it takes an id, so a change it builds on always sorts first.
     */
    @Test
    void aSlotCreatedAfterItsOldRecordWasRemovedIsPublishedAfterThatRemoval() throws Exception {
        desired.remove(guid, USER); // the old instance is asked to stop; its record stays until its cell removes it
        StatementCounter.beforeNext("LEFT JOIN evacuating_lrps", () -> {
            try {
                CompletableFuture.runAsync(() -> actual.removeAll(Map.of(zero, InstanceOwner.of("old-0", cell)),
                        "container stopped", Actor.cell(cell))).get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        desired.desire(definition(1), USER);

        List<String> published = jdbc.queryForList("SELECT event_type FROM lrp_events WHERE process_guid = ? AND "
                + "instance_index = 0 AND payload IS NOT NULL AND event_type IN ('actual_lrp_created', "
                + "'actual_lrp_removed') ORDER BY tx_id, id", String.class, guid);
        assertThat(published).as("in the order the relay publishes them").containsExactly("actual_lrp_created",
                "actual_lrp_removed", "actual_lrp_created");
    }

    /**
     * The same for a fenced writer (the converger, the auctioneer): its leader fence takes a share lock, which gives
     * the transaction its id. Run first, a repair that then read a change a cell committed meanwhile was published
     * before that change; the fence now runs last, before the commit.
     */
    @Test
    void aFencedRepairIsPublishedAfterTheChangeItRead() {
        ActualLrpKey one = ActualLrpKey.of(guid, 1);
        jdbc.update("UPDATE desired_lrps SET instances = 2 WHERE process_guid = ?", guid);
        actual.createUnclaimed(guid, "d1", List.of(1), "missing", USER);
        InstanceOwner owner = InstanceOwner.of("new-1", cell);
        actual.claim(one, owner, Actor.cell(cell));
        ActualLrpLifecycle fenced = actual.guardedBy(() -> jdbc.queryForList(
                "SELECT cell_id FROM cells WHERE cell_id = ? FOR SHARE", String.class, cell));
        StatementCounter.beforeNext("LEFT JOIN evacuating_lrps", () -> {
            try {
                CompletableFuture.runAsync(() -> actual.start(new StartedInstance(one, "d1", owner, NET),
                        Actor.cell(cell))).get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        assertThat(fenced.unclaim(List.of(one), EnumSet.of(ActualLrpState.RUNNING), "cell presence expired",
                Actor.service("converger"))).containsEntry(one, Outcome.CHANGED);

        assertThat(jdbc.queryForList("SELECT to_state FROM lrp_events WHERE process_guid = ? AND instance_index = 1 "
                + "AND event_type = 'actual_lrp_changed' ORDER BY tx_id, id", String.class, guid))
                .as("in the order the relay publishes them").containsExactly("CLAIMED", "RUNNING", "UNCLAIMED");
    }

    /**
     * The truth checker's anomaly of seed 1204: a write is versioned by the row's version alone, and every record
     * starts at version 0. A retire that read record X of a slot, while X was retired and the slot created again as Y
     * before its delete ran, deleted Y as if it were X: the stream announced X's removal twice and Y vanished
     * unannounced. A versioned write holds only for the record it read (its epoch and version, the modification tag).
     */
    @Test
    void aRetireDoesNotDeleteTheRecordThatReplacedTheOneItRead() {
        ActualLrpKey one = secondIndexUnclaimed();
        replaceBeforeNext("DELETE FROM actual_lrps", one);

        actual.retire(List.of(one), "no longer desired", Actor.service("converger"));

        assertThat(lives(one)).as("X created and removed, Y created and removed").hasSize(4);
        assertLivesInOrder(one);
        assertThat(actuals.findById(one)).isEmpty();
    }

    /** The same for an update: a placement read for X is not written onto its replacement Y. */
    @Test
    void aPlacementIsNotWrittenOntoTheRecordThatReplacedTheOneItRead() {
        ActualLrpKey one = secondIndexUnclaimed();
        replaceBeforeNext("UPDATE actual_lrps", one);

        assertThat(actual.place(UUID.randomUUID(), Map.of(one, cell), Actor.service("auctioneer")))
                .containsEntry(one, Outcome.CHANGED);

        UUID y = actuals.findById(one).orElseThrow().epoch();
        LrpsPlaced.Placement sent = new Records(jdbc).messages(Topics.AUCTION_RESULTS, cell, LrpsPlaced.class).stream()
                .flatMap(m -> m.placements().stream()).filter(p -> p.processGuid().equals(guid) && p.index() == 1)
                .reduce((a, b) -> b).orElseThrow();
        assertThat(sent.epoch()).as("the record the cell is asked to claim is the one there").isEqualTo(y);
        assertThat(jdbc.queryForObject("SELECT placed_cell_id FROM actual_lrps WHERE process_guid = ? AND "
                + "instance_index = 1", String.class, guid)).isEqualTo(cell);
        assertThat(lives(one)).as("X created and removed, Y created").hasSize(3).last().asString()
                .isEqualTo("actual_lrp_created " + y);
    }

    /**
     * The same for a twin, which takes its record's epoch and starts at version 0: a cell's removal of the twin it read
     * (its repeat, say) does not delete the twin of a later drain of the same record; the instance guid tells them.
     */
    @Test
    void aRemovalOfATwinDoesNotDeleteTheTwinOfALaterDrain() {
        String other = "cell-" + UUID.randomUUID();
        cells.heartbeat(new CellRegistration(other, "z1", "10.0.0.2", new Resources(1024, 1024, 10),
                List.of("preloaded:host"), List.of(), List.of()), Duration.ofMinutes(1));
        InstanceOwner first = InstanceOwner.of("old-0", cell);
        InstanceOwner second = InstanceOwner.of("new-0", other);
        assertThat(actual.evacuate(Map.of(zero, first), Actor.cell(cell))).containsEntry(zero, Outcome.CHANGED);
        StatementCounter.beforeNext("DELETE FROM evacuating_lrps", () -> {
            try {
                CompletableFuture.runAsync(() -> {
                    actual.removeAll(Map.of(zero, first), "container stopped", Actor.cell(cell));
                    actual.claim(zero, second, Actor.cell(other));
                    actual.start(new StartedInstance(zero, "d1", second, NET), Actor.cell(other));
                    actual.evacuate(Map.of(zero, second), Actor.cell(other));
                }).get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        Outcome again = actual.removeAll(Map.of(zero, first), "container stopped", Actor.cell(cell)).get(zero);

        assertThat(again.kind()).isEqualTo(Outcome.Kind.REJECTED);
        assertThat(jdbc.queryForList("SELECT instance_guid FROM evacuating_lrps WHERE process_guid = ?", String.class,
                guid)).as("the later drain's twin serves on").containsExactly("new-0");
    }

    /**
     * Found by {@code LifecycleEventOrderIT}: a delete of the LRP waits for a repair's lock on its row, its transaction
     * id taken. A second repair asking for the row then must queue behind the delete: with a share lock it was granted
     * at once beside the first, created its slot and committed ahead of the delete, which then retired that slot under
     * its older id, publishing the removal before the creation.
     */
    @Test
    void aRepairDoesNotSlipAheadOfADeleteWaitingForAnotherRepair() throws Exception {
        jdbc.update("UPDATE desired_lrps SET instances = 3 WHERE process_guid = ?", guid);
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<List<Integer>> first = CompletableFuture.supplyAsync(() -> {
            StatementCounter.beforeNext("INSERT INTO actual_lrps", () -> { // holding its lock on the desired row
                locked.countDown();
                awaitLatch(release);
            });
            return actual.createMissing(guid, "d1", List.of(1), "missing index", Actor.service("converger"));
        });
        assertThat(locked.await(30, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Void> delete = CompletableFuture.runAsync(() -> desired.remove(guid, USER));
        await().atMost(Duration.ofSeconds(30)).until(() -> waiting("DELETE FROM desired_lrps") == 1);
        CompletableFuture<List<Integer>> second = CompletableFuture.supplyAsync(() -> actual.createMissing(guid, "d1",
                List.of(2), "missing index", Actor.service("converger")));
        await().atMost(Duration.ofSeconds(30)).until(() -> second.isDone() || waiting("desired_lrps") == 2);
        release.countDown();
        first.get(30, TimeUnit.SECONDS);
        delete.get(30, TimeUnit.SECONDS);
        second.get(30, TimeUnit.SECONDS);

        assertLivesInOrder(ActualLrpKey.of(guid, 1));
        assertLivesInOrder(ActualLrpKey.of(guid, 2));
    }

    /**
     * Found by {@code LifecycleEventOrderIT}: a delete waits for a lock an update does not conflict with (a foreign
     * key's, as a deployment's insert takes), its transaction id taken; the update commits first, and the delete then
     * removes the LRP the update wrote. Published in id order, the removal came before the change. The delete now
     * sees that the version it removed is younger than itself and runs again under a new id.
     */
    @Test
    void aDeleteThatWaitedPublishesItsRemovalAfterTheChangeThatCommittedMeanwhile() throws Exception {
        try (Held foreignKey = Held.lock(jdbc, "SELECT 1 FROM desired_lrps WHERE process_guid = ? FOR KEY SHARE",
                guid)) {
            CompletableFuture<Void> delete = CompletableFuture.runAsync(() -> desired.remove(guid, USER));
            await().atMost(Duration.ofSeconds(30)).until(() -> waiting("DELETE FROM desired_lrps") == 1);
            desired.update(guid, DesiredLrpUpdate.scale(2), List.of(), USER);
            foreignKey.release();
            delete.get(30, TimeUnit.SECONDS);
        }
        assertThat(jdbc.queryForList("SELECT event_type FROM lrp_events WHERE process_guid = ? AND entity = 'desired' "
                + "ORDER BY tx_id, id", String.class, guid)).as("in the order the relay publishes them")
                .containsExactly("desired_lrp_created", "desired_lrp_changed", "desired_lrp_removed");
        for (int i = 0; i < 2; i++) {
            assertLivesInOrder(ActualLrpKey.of(guid, i));
        }
    }

    /** Every record of the slot is created, then removed, in the relay's order, and only the last may live on. */
    private void assertLivesInOrder(ActualLrpKey key) {
        List<String> lives = lives(key).stream().filter(l -> !l.startsWith("actual_lrp_changed")).toList();
        for (int i = 0; i < lives.size(); i++) {
            if (i % 2 == 0) {
                assertThat(lives.get(i)).as("%s, event %d of %s", key, i, lives).startsWith("actual_lrp_created ");
            } else {
                assertThat(lives.get(i)).as("%s, event %d of %s", key, i, lives)
                        .isEqualTo(lives.get(i - 1).replace("created", "removed"));
            }
        }
    }

    /** Sessions waiting for a lock on a statement that contains {@code sql}. */
    private int waiting(String sql) {
        return jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                + "AND query LIKE ?", Integer.class, "%" + sql + "%");
    }

    /** A transaction of the test's own holding a row lock until released (or closed). */
    private static final class Held implements AutoCloseable {

        private final CountDownLatch release = new CountDownLatch(1);
        private final CompletableFuture<Void> transaction;

        private Held(CompletableFuture<Void> transaction) {
            this.transaction = transaction;
        }

        static Held lock(JdbcTemplate jdbc, String sql, String guid) throws Exception {
            CountDownLatch locked = new CountDownLatch(1);
            TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(jdbc.getDataSource()));
            Held[] held = new Held[1];
            CountDownLatch made = new CountDownLatch(1);
            CompletableFuture<Void> transaction = CompletableFuture.runAsync(() -> tx.executeWithoutResult(s -> {
                jdbc.queryForList(sql, guid);
                locked.countDown();
                try {
                    made.await(30, TimeUnit.SECONDS);
                    held[0].release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            held[0] = new Held(transaction);
            made.countDown();
            assertThat(locked.await(30, TimeUnit.SECONDS)).isTrue();
            return held[0];
        }

        void release() throws Exception {
            release.countDown();
            transaction.get(30, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws Exception {
            release.countDown();
            transaction.get(30, TimeUnit.SECONDS);
        }
    }

    /** The LRP wants two instances, and index 1 has a new UNCLAIMED record (version 0). */
    private ActualLrpKey secondIndexUnclaimed() {
        jdbc.update("UPDATE desired_lrps SET instances = 2 WHERE process_guid = ?", guid);
        actual.createUnclaimed(guid, "d1", List.of(1), "missing", USER);
        return ActualLrpKey.of(guid, 1);
    }

    /** Just before this thread's next statement containing {@code sql}: another writer retires the slot and refills it. */
    private void replaceBeforeNext(String sql, ActualLrpKey key) {
        StatementCounter.beforeNext(sql, () -> {
            try {
                CompletableFuture.runAsync(() -> {
                    actual.retire(List.of(key), "restart requested", USER);
                    actual.createUnclaimed(guid, "d1", List.of(key.index()), "missing", USER);
                }).get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** The slot's published record events, in the relay's order: each its type and the epoch of the record it is about. */
    private List<String> lives(ActualLrpKey key) {
        return jdbc.queryForList("SELECT event_type || ' ' || coalesce(p -> 'before' -> 'modification_tag' ->> 'epoch', "
                + "p -> 'after' -> 'modification_tag' ->> 'epoch') FROM (SELECT tx_id, id, event_type, "
                + "convert_from(payload, 'UTF8')::jsonb AS p FROM lrp_events WHERE process_guid = ? AND instance_index = ? "
                + "AND payload IS NOT NULL AND event_type IN ('actual_lrp_created', 'actual_lrp_changed', "
                + "'actual_lrp_removed')) e ORDER BY tx_id, id", String.class, key.processGuid(), key.index());
    }

    private boolean waitsOnALock() {
        return jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                + "AND query LIKE '%desired_lrps%FOR NO KEY UPDATE%'", Integer.class) > 0;
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Deployment startDeploymentToVersion2() {
        return deployments.start(guid, current -> withAction(current.definition(), "v2"), STRATEGY, "alice", USER);
    }

    private void run(ActualLrpKey key, String instanceGuid) {
        InstanceOwner owner = InstanceOwner.of(instanceGuid, cell);
        actual.claim(key, owner, USER);
        actual.start(new StartedInstance(key, "d1", owner, NET), USER);
    }

    private DesiredLrpDefinition definition(int instances) {
        return new DesiredLrpDefinition(guid, "d1", "preloaded:host", instances, action("v1"), null, null, 0, null,
                List.of(8080), 64, 64, 0, 0, null, null, null, null, null);
    }

    private static Action action(String version) {
        return new Action(new RunAction("sleep", List.of("100", version), null, null, null));
    }

    private static Deployable withAction(DesiredLrpDefinition d, String version) {
        Deployable current = Deployable.of(d);
        return new Deployable(action(version), current.monitor(), current.checkDefinition(), current.startTimeout(),
                current.env(), current.ports(), current.memoryMb(), current.diskMb(), current.maxPids(),
                current.cpuWeight(), current.placementTags());
    }
}
