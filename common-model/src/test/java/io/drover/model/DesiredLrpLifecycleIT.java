package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.drover.model.Records.Audit;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.config.TimeOrderedIds;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.AutoscaledInstancesException;
import io.drover.model.lrp.AutoscalingPolicy;
import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.CrashRestartPolicy;
import io.drover.model.lrp.Deployable;
import io.drover.model.lrp.DesiredLrpAlreadyExistsException;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.DesiredLrpNotFoundException;
import io.drover.model.lrp.DesiredLrpSnapshot;
import io.drover.model.lrp.DesiredLrpUpdate;
import io.drover.model.lrp.EnvVar;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.LifecycleFactory;
import io.drover.model.lrp.ModificationTag;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.RunAction;
import io.drover.model.lrp.StaleModificationTagException;
import io.drover.model.lrp.StartedInstance;
import io.drover.model.messaging.ConvergenceRequested;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.LrpStartRequested;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.Outbox;
import io.drover.model.messaging.Topics;
import io.drover.model.read.DesiredLrpRow;
import io.drover.model.read.DesiredLrpRows;
import io.drover.test.WithDroverInfrastructure;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Every {@link DesiredLrpLifecycle} operation end to end, with the actual LRPs and messages each one causes. */
@SpringBootTest
@WithDroverInfrastructure
class DesiredLrpLifecycleIT {

    static final Actor RECEPTOR = Actor.service("receptor");
    static final ExecutorService POOL = Executors.newFixedThreadPool(10);

    @Autowired
    DesiredLrpLifecycle lifecycle;
    @Autowired
    ActualLrpLifecycle actualLifecycle;
    @Autowired
    ActualLrpRepository actuals;
    @Autowired
    DesiredLrpRows desiredRows;
    @Autowired
    CellPresence cells;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    Outbox outbox;
    @Autowired
    CrashRestartPolicy policy;

    Records records;
    String guid;

    @BeforeEach
    void newProcess() {
        records = new Records(jdbc);
        guid = "app-" + UUID.randomUUID();
    }

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    @Test
    void desireCreatesTheRecordItsInstancesAndOneAuctionRequest() {
        DesiredLrpSnapshot created = lifecycle.desire(definition(3), RECEPTOR);

        assertThat(created.modificationTag().index()).isZero();
        assertThat(created.definition()).isEqualTo(definition(3));
        assertThat(desiredRows.find(guid)).get().extracting(DesiredLrpRow::instances).isEqualTo(3);
        assertThat(actuals.findByProcessGuid(guid)).extracting(ActualLrp::index).containsExactly(0, 1, 2);
        assertThat(records.messages(Topics.START_REQUESTS, guid, LrpStartRequested.class)).singleElement()
                .satisfies(m -> assertThat(m.indices()).containsExactly(0, 1, 2));
        assertThat(records.audit(guid)).extracting(Audit::entity, Audit::type).startsWith(
                org.assertj.core.groups.Tuple.tuple("desired", LifecycleEvent.DESIRED_LRP_CREATED)).hasSize(4);
        LifecycleEvent event = records.messages(Topics.LIFECYCLE_EVENTS, guid, LifecycleEvent.class).get(0);
        assertThat(event.type()).isEqualTo(LifecycleEvent.DESIRED_LRP_CREATED);
        assertThat(event.after().get("process_guid").asString()).isEqualTo(guid);
        assertThat(event.after().get("instances").asInt()).isEqualTo(3);
    }

    @Test
    void desiringTheSameProcessTwiceFails() {
        lifecycle.desire(definition(1), RECEPTOR);
        assertThatThrownBy(() -> lifecycle.desire(definition(2), RECEPTOR))
                .isInstanceOf(DesiredLrpAlreadyExistsException.class);
        assertThat(actuals.findByProcessGuid(guid)).hasSize(1);
    }

    @Test
    void concurrentDesiresOfOneProcessCreateItOnce() throws Exception {
        List<Object> results = race(4, () -> lifecycle.desire(definition(2), RECEPTOR));
        assertThat(results).filteredOn(r -> r instanceof DesiredLrpSnapshot).hasSize(1);
        assertThat(results).filteredOn(r -> r instanceof DesiredLrpAlreadyExistsException).hasSize(3);
        assertThat(records.messages(Topics.START_REQUESTS, guid, LrpStartRequested.class)).hasSize(1);
    }

    @Test
    void updateWithAStaleModificationTagIsRejected() {
        List<ModificationTag> first = List.of(lifecycle.desire(definition(1), RECEPTOR).modificationTag());
        lifecycle.update(guid, new DesiredLrpUpdate(null, null, "first"), first, RECEPTOR);
        assertThatThrownBy(() -> lifecycle.update(guid, new DesiredLrpUpdate(4, null, null), first, RECEPTOR))
                .isInstanceOf(StaleModificationTagException.class);
        assertThat(desiredRows.find(guid).orElseThrow().instances()).isEqualTo(1);
        assertThat(actuals.findByProcessGuid(guid)).hasSize(1);
    }

    @Test
    void aTagOfADeletedLrpIsStaleForItsNewIncarnationThoughItsIndexMatches() {
        ModificationTag old = lifecycle.desire(definition(1), RECEPTOR).modificationTag();
        lifecycle.remove(guid, RECEPTOR);
        DesiredLrpSnapshot recreated = lifecycle.desire(definition(2), RECEPTOR);
        assertThat(recreated.modificationTag().index()).isEqualTo(old.index());

        assertThatThrownBy(() -> lifecycle.update(guid, new DesiredLrpUpdate(5, null, "late"), List.of(old),
                RECEPTOR)).isInstanceOf(StaleModificationTagException.class);
        assertThat(desiredRows.find(guid)).get().satisfies(row -> {
            assertThat(row.modificationTag()).isEqualTo(recreated.modificationTag());
            assertThat(row.instances()).isEqualTo(2);
        });
        assertThat(actuals.findByProcessGuid(guid)).hasSize(2);
    }

    @Test
    void scaleUpCreatesTheNewIndicesAndRequestsTheirAuction() {
        DesiredLrpSnapshot desired = lifecycle.desire(definition(2), RECEPTOR);
        DesiredLrpSnapshot updated = lifecycle.update(guid, new DesiredLrpUpdate(4, null, null),
                List.of(desired.modificationTag()), RECEPTOR);

        assertThat(updated.modificationTag().index()).isEqualTo(1);
        assertThat(actuals.findByProcessGuid(guid)).extracting(ActualLrp::index).containsExactly(0, 1, 2, 3);
        assertThat(records.messages(Topics.START_REQUESTS, guid, LrpStartRequested.class)).last()
                .satisfies(m -> assertThat(m.indices()).containsExactly(2, 3))
                .satisfies(m -> assertThat(m.reason()).isEqualTo("scaled up"));
        assertThat(records.audit(guid)).filteredOn(a -> a.type().equals(LifecycleEvent.DESIRED_LRP_CHANGED))
                .singleElement().extracting(Audit::version).isEqualTo(1L);
    }

    @Test
    void aChangeOrARemovalAsksTheConvergerForOnePassPerTransactionADesireAndAStartDoNot() {
        lifecycle.desire(definition(3), RECEPTOR);
        runningOnALiveCell(2);
        assertThat(records.messages(Topics.CONVERGENCE_REQUESTS, guid, ConvergenceRequested.class))
                .as("the desire created its instances itself, and an instance's progress asks nothing").isEmpty();

        actualLifecycle.retire(List.of(ActualLrpKey.of(guid, 0)), "restart", RECEPTOR);
        lifecycle.update(guid, new DesiredLrpUpdate(1, null, null), List.of(), RECEPTOR);
        lifecycle.remove(guid, RECEPTOR);

        assertThat(records.messages(Topics.CONVERGENCE_REQUESTS, guid, ConvergenceRequested.class))
                .as("one per transaction, named by its first change that asks, however many instances it removed")
                .extracting(ConvergenceRequested::reason).containsExactly(LifecycleEvent.ACTUAL_LRP_REMOVED,
                        LifecycleEvent.DESIRED_LRP_CHANGED, LifecycleEvent.DESIRED_LRP_REMOVED);
    }

    @Test
    void scaleDownRetiresTheExtraIndices() {
        lifecycle.desire(definition(3), RECEPTOR);
        String cell = runningOnALiveCell(2);

        lifecycle.update(guid, new DesiredLrpUpdate(1, null, null), List.of(), RECEPTOR);

        assertThat(actuals.findByProcessGuid(guid)).extracting(ActualLrp::index)
                .as("the unclaimed extra is gone, the running one waits for its cell to stop it").containsExactly(0, 2);
        assertThat(records.messages(Topics.STOP_REQUESTS, cell, LrpStopRequested.class)).singleElement()
                .satisfies(stop -> assertThat(stop.index()).isEqualTo(2))
                .satisfies(stop -> assertThat(stop.reason()).isEqualTo("scaled down"));
    }

    @Test
    void aRepairPlannedBeforeAScaleDownOrADeleteCreatesNothingTheUserTookAway() {
        lifecycle.desire(definition(3), RECEPTOR);
        lifecycle.update(guid, new DesiredLrpUpdate(1, null, null), List.of(), RECEPTOR);
        // the converger saw 3 instances with index 2 missing, before the scale-down
        assertThat(actualLifecycle.createMissing(guid, "d1", List.of(1, 2), "missing index",
                Actor.service("converger"))).isEmpty();
        assertThat(actuals.findByProcessGuid(guid)).extracting(ActualLrp::index).containsExactly(0);

        lifecycle.update(guid, new DesiredLrpUpdate(3, null, null), List.of(), RECEPTOR);
        actualLifecycle.retire(List.of(ActualLrpKey.of(guid, 1)), "restart", RECEPTOR);
        assertThat(actualLifecycle.createMissing(guid, "d1", List.of(1), "missing index", Actor.service("converger")))
                .as("still desired: created").containsExactly(1);

        lifecycle.remove(guid, RECEPTOR);
        assertThat(actualLifecycle.createMissing(guid, "d1", List.of(0, 1, 2), "missing index",
                Actor.service("converger"))).as("deleted since the snapshot").isEmpty();
        assertThat(actuals.findByProcessGuid(guid)).isEmpty();
    }

    @Test
    void updateThatChangesNothingKeepsTheVersion() {
        DesiredLrpSnapshot desired = lifecycle.desire(definition(2), RECEPTOR);
        DesiredLrpSnapshot same = lifecycle.update(guid, new DesiredLrpUpdate(2, null, null),
                List.of(desired.modificationTag()), RECEPTOR);
        assertThat(same.modificationTag().index()).isZero();
        assertThat(records.audit(guid)).noneMatch(a -> a.type().equals(LifecycleEvent.DESIRED_LRP_CHANGED));
    }

    @Test
    void routesAndAnnotationChangeWithoutTouchingInstances() {
        lifecycle.desire(definition(1), RECEPTOR);
        DesiredLrpSnapshot updated = lifecycle.update(guid, new DesiredLrpUpdate(null, "{\"r\":1}", "note"),
                List.of(), RECEPTOR);
        assertThat(updated.definition().routes()).isEqualTo("{\"r\":1}");
        assertThat(updated.definition().annotation()).isEqualTo("note");
        assertThat(updated.definition().instances()).isEqualTo(1);
        LifecycleEvent changed = records.messages(Topics.LIFECYCLE_EVENTS, guid, LifecycleEvent.class).stream()
                .filter(e -> e.type().equals(LifecycleEvent.DESIRED_LRP_CHANGED)).findFirst().orElseThrow();
        assertThat(changed.before().get("annotation").isNull()).isTrue();
        assertThat(changed.after().get("annotation").asString()).isEqualTo("note");
    }

    @Test
    void concurrentUnconditionalUpdatesAreEachAppliedOrRejectedNeverLost() throws Exception {
        lifecycle.desire(definition(1), RECEPTOR);
        List<Object> results = race(10, () -> lifecycle.update(guid,
                new DesiredLrpUpdate(null, null, "writer-" + UUID.randomUUID()), List.of(), RECEPTOR));
        long applied = results.stream().filter(r -> r instanceof DesiredLrpSnapshot).count();
        assertThat(results).allMatch(r -> r instanceof DesiredLrpSnapshot || r instanceof StaleModificationTagException);
        assertThat(applied).isPositive();
        assertThat(desiredRows.find(guid).orElseThrow().version()).as("one version per applied update")
                .isEqualTo(applied);
        assertThat(records.audit(guid)).filteredOn(a -> a.type().equals(LifecycleEvent.DESIRED_LRP_CHANGED))
                .hasSize((int) applied);
    }

    /**
     * A scale-down whose instances a cell moves on meanwhile (each attempt reads the running instance, then finds its
     * row changed when it writes the stop mark) is no lost compare-and-swap of the desired row: no other update won,
     * so it is retried like every lifecycle write, and an unconditional scale is not answered 409 for it. The lifecycle
     * under test asks its id source for the stop request's id between that read and that write; the source commits a
     * cell's move of the instance from another connection the first three times.
     */
    @Test
    void anUnconditionalScaleDownOutlastsTheCellsMovingItsInstancesMeanwhile() throws Exception {
        AtomicInteger moves = new AtomicInteger();
        Supplier<UUID> ids = new TimeOrderedIds();
        Supplier<UUID> movingIds = () -> {
            if (moves.getAndUpdate(m -> Math.max(0, m - 1)) > 0) {
                try {
                    POOL.submit(() -> jdbc.update("UPDATE actual_lrps SET version = version + 1 "
                            + "WHERE process_guid = ? AND instance_index = 2", guid)).get(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException("the cell's move did not commit", e);
                }
            }
            return ids.get();
        };
        DesiredLrpLifecycle scaling = new LifecycleFactory(
                new TransactionTemplate(new DataSourceTransactionManager(jdbc.getDataSource())), jdbc, outbox,
                Clock.systemUTC(), movingIds, policy).desiredLrpLifecycle(8);
        scaling.desire(definition(3), RECEPTOR);
        String cell = runningOnALiveCell(2);
        long running = actuals.findByProcessGuid(guid).stream().filter(l -> l.index() == 2).findFirst().orElseThrow()
                .version();

        moves.set(3);
        DesiredLrpSnapshot scaled = scaling.update(guid, new DesiredLrpUpdate(1, null, null), List.of(), RECEPTOR);

        assertThat(moves.get()).as("every move committed under a running attempt").isZero();
        assertThat(scaled.definition().instances()).isEqualTo(1);
        assertThat(actuals.findByProcessGuid(guid)).filteredOn(l -> l.index() == 2).singleElement()
                .as("three moves, then the fourth attempt's stop mark").extracting(ActualLrp::version)
                .isEqualTo(running + 4);
        assertThat(records.messages(Topics.STOP_REQUESTS, cell, LrpStopRequested.class))
                .as("the attempts that lost wrote nothing").singleElement()
                .satisfies(stop -> assertThat(stop.index()).isEqualTo(2));
        assertThat(records.audit(guid)).filteredOn(a -> a.type().equals(LifecycleEvent.DESIRED_LRP_CHANGED))
                .singleElement().extracting(Audit::version).isEqualTo(1L);
    }

    @Test
    void removeDeletesTheDesiredRecordAndRetiresItsInstances() {
        lifecycle.desire(definition(2), RECEPTOR);
        String cell = liveCell();
        actualLifecycle.claim(ActualLrpKey.of(guid, 1), InstanceOwner.of("ig-1", cell), Actor.cell(cell));

        lifecycle.remove(guid, RECEPTOR);

        assertThat(desiredRows.find(guid)).isEmpty();
        assertThat(actuals.findByProcessGuid(guid)).extracting(ActualLrp::index).containsExactly(1);
        assertThat(records.messages(Topics.STOP_REQUESTS, cell, LrpStopRequested.class)).singleElement()
                .satisfies(stop -> assertThat(stop.reason()).isEqualTo("desired LRP deleted"));
        assertThat(records.audit(guid)).filteredOn(a -> a.entity().equals("desired")).extracting(Audit::type)
                .containsExactly(LifecycleEvent.DESIRED_LRP_CREATED, LifecycleEvent.DESIRED_LRP_REMOVED);
        LifecycleEvent removed = records.messages(Topics.LIFECYCLE_EVENTS, guid, LifecycleEvent.class).stream()
                .filter(e -> e.type().equals(LifecycleEvent.DESIRED_LRP_REMOVED)).findFirst().orElseThrow();
        assertThat(removed.after()).isNull();
        assertThat(removed.before().get("process_guid").asString()).isEqualTo(guid);
    }

    @Test
    void desireWritesEverythingInSixStatements() {
        StatementCounter.reset();

        lifecycle.desire(definition(10), RECEPTOR);

        assertThat(StatementCounter.prepared()).as("the slots taken by an earlier incarnation, whether the guid is "
                + "taken, the desired row with its first definition, the 10 instances, one batch of audit rows (the "
                + "events), the start request").isEqualTo(6);
        assertThat(actuals.findByProcessGuid(guid)).hasSize(10);
        assertThat(jdbc.queryForObject("SELECT definition_version FROM desired_lrp_definitions WHERE process_guid = ?",
                Integer.class, guid)).isEqualTo(1);
    }

    @Test
    void aBatchOfDesiresTakesSixStatementsAndAnswersEachAsItsOwnCallWould() {
        String taken = guid;
        lifecycle.desire(definition(1), RECEPTOR);
        List<String> fresh = List.of("app-" + UUID.randomUUID(), "app-" + UUID.randomUUID(), "app-" + UUID.randomUUID());
        StatementCounter.reset();

        List<DesiredLrpLifecycle.Desired> answers = lifecycle.desireAll(List.of(definition(fresh.get(2), 3),
                definition(taken, 2), definition(fresh.get(0), 10), definition(fresh.get(2), 5),
                definition(fresh.get(1), 1)), RECEPTOR);

        assertThat(StatementCounter.prepared()).as("as one desire: the slots, the guids taken, the desired rows in "
                + "one batch, the instances, the audit rows, the start requests").isEqualTo(6);
        assertThat(answers).extracting(a -> a.lrp() == null ? null : a.lrp().definition().instances())
                .containsExactly(3, null, 10, null, 1);
        assertThat(answers.get(1).refusal()).isInstanceOf(DesiredLrpAlreadyExistsException.class)
                .hasMessageContaining(taken);
        assertThat(answers.get(3).refusal()).as("the second desire of one guid in a batch finds it taken")
                .isInstanceOf(DesiredLrpAlreadyExistsException.class).hasMessageContaining(fresh.get(2));
        assertThat(actuals.findByProcessGuid(taken)).hasSize(1);
        assertThat(actuals.findByProcessGuid(fresh.get(0))).extracting(ActualLrp::index)
                .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(actuals.findByProcessGuid(fresh.get(2))).hasSize(3);
        for (String created : fresh) {
            assertThat(records.messages(Topics.START_REQUESTS, created, LrpStartRequested.class)).hasSize(1);
            assertThat(records.audit(created)).extracting(Audit::type).first()
                    .isEqualTo(LifecycleEvent.DESIRED_LRP_CREATED);
        }
    }

    /**
     * A batch of desires that meets a guid whose delete is in flight must not wait for that delete: an earlier row of
     * the batch may have given its transaction an id before the delete took its own, and the new LRP's creation,
     * written after the delete committed, would then be published before the old one's removal. A guid with a row,
     * committed or not, is taken: that desire is refused at once (the LRP exists at the batch's read), the others go in.
     */
    @Test
    void aDesireOfAGuidWhoseDeleteIsInFlightIsRefusedAtOnce() throws Exception {
        lifecycle.desire(definition(1), RECEPTOR);
        String other = "app-" + UUID.randomUUID();
        CountDownLatch deleting = new CountDownLatch(1);
        AtomicBoolean answered = new AtomicBoolean();
        Future<?> delete = POOL.submit(() -> {
            StatementCounter.beforeNext("INSERT INTO lrp_events", () -> {
                deleting.countDown(); // the desired row is deleted, not committed
                await().atMost(Duration.ofSeconds(30)).until(() -> answered.get() || waitsToInsertADesiredRow());
            });
            lifecycle.remove(guid, RECEPTOR);
        });
        assertThat(deleting.await(30, TimeUnit.SECONDS)).isTrue();

        List<DesiredLrpLifecycle.Desired> answers;
        try {
            answers = lifecycle.desireAll(List.of(definition(other, 1), definition(guid, 2)), RECEPTOR);
        } finally {
            answered.set(true);
        }
        delete.get(30, TimeUnit.SECONDS);

        assertThat(answers.get(0).lrp()).isNotNull();
        assertThat(answers.get(1).refusal()).as("refused without waiting for the delete")
                .isInstanceOf(DesiredLrpAlreadyExistsException.class);
        assertThat(jdbc.queryForList("SELECT event_type FROM lrp_events WHERE process_guid = ? AND entity = 'desired' "
                + "ORDER BY tx_id, id", String.class, guid)).as("in the order the relay publishes them")
                .containsExactly(LifecycleEvent.DESIRED_LRP_CREATED, LifecycleEvent.DESIRED_LRP_REMOVED);
    }

    @Test
    void everyFieldOfADesireReadsBackAndLeavesInTheRemovalEvent() {
        DesiredLrpDefinition full = new DesiredLrpDefinition(guid, "d1", "preloaded:host", 2,
                new Action(new RunAction("sleep", List.of("100"), "/app", List.of(new EnvVar("A", "1")),
                        new RunAction.ResourceLimits(1024L))), new RunAction("true", List.of(), null, null, null),
                new CheckDefinition(List.of(new CheckDefinition.Check(new CheckDefinition.TcpCheck(8080, 500), null))),
                30, List.of(new EnvVar("B", "2")), List.of(8080, 9090), 64, 128, 20, 10, List.of("blue"),
                "{\"http\":[\"web.example.com\"]}", "v1", "log-1", "metrics-1");
        DesiredLrpSnapshot created = lifecycle.desire(full, RECEPTOR);

        DesiredLrpRow stored = desiredRows.find(guid).orElseThrow();
        assertThat(stored.definition()).isEqualTo(full);
        assertThat(stored.modificationTag()).isEqualTo(created.modificationTag());
        assertThat(stored.definitionVersion()).isEqualTo(1);
        assertThat(lifecycle.definitionAt(guid, 1)).get().extracting(Deployable::action).isEqualTo(full.action());

        lifecycle.remove(guid, RECEPTOR);

        LifecycleEvent removed = records.messages(Topics.LIFECYCLE_EVENTS, guid, LifecycleEvent.class).stream()
                .filter(e -> e.type().equals(LifecycleEvent.DESIRED_LRP_REMOVED)).findFirst().orElseThrow();
        LifecycleEvent desired = records.messages(Topics.LIFECYCLE_EVENTS, guid, LifecycleEvent.class).get(0);
        assertThat(withoutTimes(removed.before())).as("the removed LRP as the creation event showed it, but for the "
                + "timestamps' precision (the database keeps microseconds)").isEqualTo(withoutTimes(desired.after()));
        assertThat(removed.before().get("action").get("run").get("resource_limits").get("nofile").asLong())
                .isEqualTo(1024);
    }

    private static ObjectNode withoutTimes(JsonNode snapshot) {
        ObjectNode copy = (ObjectNode) snapshot.deepCopy();
        copy.remove(List.of("created_at", "updated_at"));
        return copy;
    }

    @Test
    void anAutoscalingPolicyIsStoredChangedAndRemovedWithTheLrpsVersionAndEvents() {
        AutoscalingPolicy policy = new AutoscalingPolicy(1, 4, 60, null, 0, 300);
        DesiredLrpDefinition d = definition(2);
        lifecycle.desire(new DesiredLrpDefinition(d.processGuid(), d.domain(), d.rootfs(), 2, d.action(), d.monitor(),
                d.checkDefinition(), d.startTimeout(), d.env(), d.ports(), d.memoryMb(), d.diskMb(), d.maxPids(),
                d.cpuWeight(), d.placementTags(), null, null, null, null, policy), RECEPTOR);
        assertThat(desiredRows.find(guid).orElseThrow().definition().autoscaling()).isEqualTo(policy);
        assertThat(desiredRows.tag(guid).orElseThrow().autoscaled()).isTrue();

        assertThatThrownBy(() -> lifecycle.update(guid, DesiredLrpUpdate.scale(5), List.of(), RECEPTOR))
                .isInstanceOf(AutoscaledInstancesException.class).hasMessageContaining("[1, 4]");
        DesiredLrpSnapshot scaled = lifecycle.update(guid, DesiredLrpUpdate.scale(3), List.of(),
                "autoscaled up from 2 to 3: cpu 90.0% of 60%", Actor.service("autoscaler"));
        assertThat(scaled.definition().instances()).isEqualTo(3);
        assertThat(records.audit(guid)).filteredOn(a -> a.type().equals(LifecycleEvent.DESIRED_LRP_CHANGED))
                .singleElement().satisfies(a -> {
                    assertThat(a.actorService()).isEqualTo("autoscaler");
                    assertThat(a.reason()).isEqualTo("autoscaled up from 2 to 3: cpu 90.0% of 60%");
                });

        DesiredLrpSnapshot removed = lifecycle.update(guid, new DesiredLrpUpdate(null, null, null, Optional.empty()),
                List.of(), RECEPTOR);
        assertThat(removed.definition().autoscaling()).isNull();
        assertThat(removed.definition().instances()).as("removing the policy keeps the count").isEqualTo(3);
        assertThat(desiredRows.tag(guid).orElseThrow().autoscaled()).isFalse();
        LifecycleEvent change = records.messages(Topics.LIFECYCLE_EVENTS, guid, LifecycleEvent.class).stream()
                .filter(e -> e.type().equals(LifecycleEvent.DESIRED_LRP_CHANGED)).reduce((a, b) -> b).orElseThrow();
        assertThat(change.before().get("autoscaling").get("max_instances").asInt()).isEqualTo(4);
        assertThat(change.after().get("autoscaling").isNull()).isTrue();
    }

    @Test
    void updateOrRemoveOfAnUnknownProcessFails() {
        assertThatThrownBy(() -> lifecycle.update(guid, new DesiredLrpUpdate(1, null, null), List.of(), RECEPTOR))
                .isInstanceOf(DesiredLrpNotFoundException.class);
        assertThatThrownBy(() -> lifecycle.remove(guid, RECEPTOR)).isInstanceOf(DesiredLrpNotFoundException.class);
    }

    private boolean waitsToInsertADesiredRow() {
        return jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                + "AND query LIKE '%INSERT INTO desired_lrps%'", Integer.class) > 0;
    }

    private DesiredLrpDefinition definition(int instances) {
        return definition(guid, instances);
    }

    private static DesiredLrpDefinition definition(String guid, int instances) {
        return new DesiredLrpDefinition(guid, "d1", "preloaded:host", instances,
                new Action(new RunAction("sleep", List.of("100"), null, null, null)), null, null, 0, null,
                List.of(8080), 64, 64, 0, 0, null, null, null, null, null);
    }

    /** Instance {@code index} claimed and started on a new live cell, which is returned. */
    private String runningOnALiveCell(int index) {
        String cell = liveCell();
        InstanceOwner owner = InstanceOwner.of("ig-" + index, cell);
        actualLifecycle.claim(ActualLrpKey.of(guid, index), owner, Actor.cell(cell));
        actualLifecycle.start(new StartedInstance(ActualLrpKey.of(guid, index), "d1", owner,
                new NetInfo("10.0.0.3", List.of())), Actor.cell(cell));
        return cell;
    }

    private String liveCell() {
        String cell = "cell-" + UUID.randomUUID();
        cells.heartbeat(new CellRegistration(cell, "z1", "10.0.0.1", new Resources(1024, 1024, 10),
                List.of("preloaded:host"), List.of(), List.of()), Duration.ofMinutes(1));
        return cell;
    }

    /** Runs {@code action} on {@code threads} threads released together; returns each result or exception. */
    private static List<Object> race(int threads, Callable<Object> action) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Object>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            futures.add(POOL.submit(() -> {
                go.await();
                try {
                    return action.call();
                } catch (RuntimeException e) {
                    return e;
                }
            }));
        }
        go.countDown();
        List<Object> results = new ArrayList<>();
        for (Future<Object> f : futures) {
            results.add(f.get(60, TimeUnit.SECONDS));
        }
        return results;
    }
}
