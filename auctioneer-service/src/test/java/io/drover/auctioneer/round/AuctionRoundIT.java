package io.drover.auctioneer.round;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.cell.CellDrains;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.deployment.Amount;
import io.drover.model.deployment.DeploymentLifecycle;
import io.drover.model.deployment.Strategy;
import io.drover.model.json.Json;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.Deployable;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.EnvVar;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.RunAction;
import io.drover.model.lrp.StartedInstance;
import io.drover.model.messaging.LrpStartRequested;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.messaging.Topics;
import io.drover.model.task.TaskDefinition;
import io.drover.model.task.TaskLifecycle;
import io.drover.test.MutableClock;
import io.drover.test.WithDroverInfrastructure;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.annotation.DirtiesContext;

/**
 * Start requests in, placements and auction results out, against real PostgreSQL and Kafka; the leader's allocation
 * view between and at reconciles. Tests that watch one cell's load use a rootfs of their own, so only their cells are
 * candidates.
 */
// A commit batch of 4 makes the 6-instance round commit in two transactions; the reconcile interval runs on the
// test's clock.
@SpringBootTest(properties = { "drover.auctioneer.group-id=auctioneer-round-it",
        "drover.auctioneer.commit-batch-size=4", "drover.auctioneer.reconcile-interval=3s" })
@WithDroverInfrastructure
// Close this context while PostgreSQL and Kafka still run: left to the JVM's shutdown hooks, the leader's lock release
// races the embedded PostgreSQL's own shutdown hook and waits out Hikari's connection timeout.
@DirtiesContext
class AuctionRoundIT {

    private static final Resources CAPACITY = new Resources(4096, 20_000, 50);
    private static final Duration RECONCILE_INTERVAL = Duration.ofSeconds(3);

    @Autowired
    CellPresence presence;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    MutableClock clock;
    @Autowired
    ConsumerFactory<String, String> consumers;
    @Autowired
    KafkaTemplate<String, String> kafka;
    @Autowired
    MeterRegistry meters;
    @Autowired
    TaskLifecycle tasks;
    @Autowired
    ActualLrpLifecycle actuals;
    @Autowired
    DeploymentLifecycle deployments;
    @Autowired
    CellDrains drains;

    private Consumer<String, String> results;

    @BeforeEach
    void registerCells() {
        // "gone" would win every auction (empty and huge), but its presence expires before the work arrives.
        presence.heartbeat(cell("gone", "z1", new Resources(65_536, 200_000, 500)), Duration.ofSeconds(10));
        clock.advance(Duration.ofMinutes(1));
        presence.heartbeat(cell("evacuating", "z2", new Resources(65_536, 200_000, 500)), Duration.ofHours(1));
        presence.evacuate("evacuating");
        // "drained" would win too, but an operator ordered it to drain: its own heartbeats say ACTIVE until it hears
        presence.heartbeat(cell("drained", "z3", new Resources(65_536, 200_000, 500)), Duration.ofHours(1));
        drains.drain("drained", null, "ops", Actor.service("test"));
        for (String zone : List.of("z1", "z2", "z3")) {
            presence.heartbeat(cell("cell-" + zone, zone, CAPACITY), Duration.ofHours(1));
        }
        results = consumers.createConsumer("results-" + UUID.randomUUID(), null);
        results.subscribe(List.of(Topics.AUCTION_RESULTS));
    }

    @AfterEach
    void closeConsumer() {
        results.close();
    }

    @Test
    void placesSixInstancesTwoPerLiveCellAndSendsEachCellItsResult() {
        String guid = "web-" + UUID.randomUUID();
        desired.desire(lrp(guid, 6, 256), Actor.service("test"));

        await().atMost(Duration.ofSeconds(30)).until(() -> placedCells(guid).size() == 6);
        Map<String, Integer> perCell = countByCell(placedCells(guid));
        assertThat(perCell).containsOnly(Map.entry("cell-z1", 2), Map.entry("cell-z2", 2), Map.entry("cell-z3", 2));

        Map<String, Integer> announced = new HashMap<>();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            for (ConsumerRecord<String, String> record : results.poll(Duration.ofMillis(200))) {
                LrpsPlaced placed = Json.read(record.value(), LrpsPlaced.class);
                assertThat(record.key()).isEqualTo(placed.cellId());
                placed.placements().stream().filter(p -> p.processGuid().equals(guid))
                        .forEach(p -> announced.merge(record.key(), 1, Integer::sum));
            }
            assertThat(announced).isEqualTo(perCell);
        });
    }

    @Test
    void aRedeliveredRequestAndOneForInstancesNoLongerDesiredPlaceNothing() {
        String guid = "redelivered-" + UUID.randomUUID();
        desired.desire(lrp(guid, 3, 128), Actor.service("test"));
        await().atMost(Duration.ofSeconds(30)).until(() -> placedCells(guid).size() == 3);
        Map<String, Integer> placedBefore = countByCell(placedCells(guid));
        double placements = counter("drover.auction.placements");
        double skipped = counter("drover.auction.skipped");

        kafka.send(Topics.START_REQUESTS, guid, Json.write(new LrpStartRequested(UUID.randomUUID(), guid, "it",
                List.of(0, 1, 2, 3, 4), "redelivered")));

        await().atMost(Duration.ofSeconds(30)).until(() -> counter("drover.auction.skipped") >= skipped + 5);
        assertThat(counter("drover.auction.placements")).isEqualTo(placements);
        assertThat(countByCell(placedCells(guid))).isEqualTo(placedBefore);
    }

    @Test
    void anInstanceTooBigForEveryCellStaysUnclaimedWithTheReason() {
        String guid = "huge-" + UUID.randomUUID();
        desired.desire(lrp(guid, 1, 100_000), Actor.service("test"));

        await().atMost(Duration.ofSeconds(30)).until(() -> "insufficient resources: memory".equals(jdbc.queryForObject(
                "SELECT placement_error FROM actual_lrps WHERE process_guid = ? AND instance_index = 0", String.class,
                guid)));
        assertThat(jdbc.queryForObject("SELECT state || ':' || coalesce(placed_cell_id, '-') FROM actual_lrps "
                + "WHERE process_guid = ?", String.class, guid)).isEqualTo("UNCLAIMED:-");
    }

    @Test
    void tasksArePlacedInTheRoundsWithTheSameRulesAndErrorsAndCountInTheCellsLoad() {
        String fits = "task-" + UUID.randomUUID();
        String huge = "huge-task-" + UUID.randomUUID();
        String odd = "odd-task-" + UUID.randomUUID();
        tasks.submit(task(fits, 3000, "preloaded:host"), Actor.service("test"));
        tasks.submit(task(huge, 100_000, "preloaded:host"), Actor.service("test"));
        tasks.submit(task(odd, 16, "docker:///busybox"), Actor.service("test"));

        await().atMost(Duration.ofSeconds(30)).until(() -> taskColumn(fits, "placed_cell_id") != null
                && taskColumn(huge, "placement_error") != null && taskColumn(odd, "placement_error") != null);
        assertThat(taskColumn(huge, "placement_error")).isEqualTo("insufficient resources: memory");
        assertThat(taskColumn(odd, "placement_error")).isEqualTo("found no compatible cell for required rootfs");
        String cell = taskColumn(fits, "placed_cell_id");
        assertThat(cell).isIn("cell-z1", "cell-z2", "cell-z3");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            for (ConsumerRecord<String, String> record : results.poll(Duration.ofMillis(200))) {
                LrpsPlaced placed = Json.read(record.value(), LrpsPlaced.class);
                if (placed.tasks().stream().anyMatch(t -> t.taskGuid().equals(fits))) {
                    assertThat(record.key()).isEqualTo(cell);
                    return;
                }
            }
            throw new AssertionError("no auction result for " + fits + " yet");
        });

        // the 3000 MB task takes most of its cell: an instance that would not fit beside it goes elsewhere
        String guid = "beside-" + UUID.randomUUID();
        desired.desire(lrp(guid, 1, 2000), Actor.service("test"));
        await().atMost(Duration.ofSeconds(30)).until(() -> placedCells(guid).size() == 1);
        assertThat(placedCells(guid)).doesNotContain(cell);
    }

    private String taskColumn(String guid, String column) {
        return jdbc.queryForObject("SELECT " + column + " FROM tasks WHERE task_guid = ?", String.class, guid);
    }

    static TaskDefinition task(String guid, int memoryMb, String rootfs) {
        return new TaskDefinition(guid, "it", rootfs, new Action(new RunAction("true", List.of(), null, null, null)),
                List.of(), memoryMb, 64, 0, 0, List.of(), null, null, null, null, null);
    }

    @Test
    void aReconcileAfterTheIntervalPicksUpTheCapacityARemovedInstanceFreed() {
        String rootfs = "preloaded:" + UUID.randomUUID();
        String a = "view-a-" + UUID.randomUUID();
        String b = "view-b-" + UUID.randomUUID();
        presence.heartbeat(cell(a, "z1", CAPACITY, rootfs), Duration.ofHours(1));
        presence.heartbeat(cell(b, "z1", CAPACITY, rootfs), Duration.ofHours(1));
        String filler = desireOne("filler", 2048, rootfs);
        assertThat(placedCell(filler)).as("equal cells: the lowest id wins").isEqualTo(a);

        desired.remove(filler, Actor.service("test"));
        await().atMost(Duration.ofSeconds(30)).until(() -> placedCells(filler).isEmpty());
        // Within the interval the view still carries the removed instance on a: the next one goes to b.
        assertThat(placedCell(desireOne("stale", 128, rootfs))).isEqualTo(b);

        clock.advance(RECONCILE_INTERVAL);
        assertThat(placedCell(desireOne("reconciled", 128, rootfs))).as("a is empty again after the reconcile")
                .isEqualTo(a);
    }

    @Test
    void aFullCellFreedByADeleteIsNotReportedShortOfResourcesButReconciledInTheSameRound() {
        String rootfs = "preloaded:" + UUID.randomUUID();
        String full = "one-container-" + UUID.randomUUID();
        presence.heartbeat(cell(full, "z1", new Resources(4096, 20_000, 1), rootfs), Duration.ofHours(1));
        String first = desireOne("first", 128, rootfs);
        assertThat(placedCell(first)).isEqualTo(full);
        desired.remove(first, Actor.service("test"));
        await().atMost(Duration.ofSeconds(30)).until(() -> placedCells(first).isEmpty());
        double shortageReads = reconciles("shortage");

        String second = desireOne("second", 128, rootfs);

        assertThat(placedCell(second)).isEqualTo(full);
        assertThat(jdbc.queryForObject("SELECT placement_error FROM actual_lrps WHERE process_guid = ?", String.class,
                second)).isNull();
        assertThat(reconciles("shortage")).isEqualTo(shortageReads + 1);
    }

    @Test
    void aCellFilledByATwinThatARolloutKeepsServingTakesNoNewInstance() {
        String rootfs = "preloaded:" + UUID.randomUUID();
        String full = "twin-cell-" + UUID.randomUUID();
        presence.heartbeat(cell(full, "z1", new Resources(4096, 20_000, 1), rootfs), Duration.ofHours(1));
        String guid = desireOne("rolled", 128, rootfs);
        assertThat(placedCell(guid)).isEqualTo(full);
        ActualLrpKey zero = ActualLrpKey.of(guid, 0);
        InstanceOwner old = InstanceOwner.of("ig-old", full);
        actuals.claim(zero, old, Actor.cell(full));
        actuals.start(new StartedInstance(zero, "it", old, new NetInfo("10.0.0.1", List.of())), Actor.cell(full));
        deployments.start(guid, current -> withEnv(Deployable.of(current.definition()), "v2"), new Strategy(
                Amount.parse("1"), Amount.parse("0"), Duration.ofSeconds(1), Duration.ofSeconds(30), true, 0), "it",
                Actor.service("test"));

        // the deployer's surge: the old instance serves on from a twin on the full cell; its slot is auctioned again
        actuals.roll(List.of(zero), 2, true, "deployment", Actor.service("deployer"));

        await().atMost(Duration.ofSeconds(30)).until(() -> placedCell(guid) != null);
        assertThat(placedCell(guid)).as("the twin holds the cell's one container")
                .isEqualTo("insufficient resources: containers");
    }

    private static Deployable withEnv(Deployable d, String value) {
        return new Deployable(d.action(), d.monitor(), d.checkDefinition(), d.startTimeout(),
                List.of(new EnvVar("VERSION", value)), d.ports(), d.memoryMb(), d.diskMb(), d.maxPids(), d.cpuWeight(),
                d.placementTags());
    }

    /** Desires one instance and waits for its placement or its placement error. */
    private String desireOne(String name, int memoryMb, String rootfs) {
        String guid = name + "-" + UUID.randomUUID();
        desired.desire(lrp(guid, 1, memoryMb, rootfs), Actor.service("test"));
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject("SELECT count(*) FROM actual_lrps "
                + "WHERE process_guid = ? AND (placed_cell_id IS NOT NULL OR placement_error IS NOT NULL)",
                Integer.class, guid) == 1);
        return guid;
    }

    private String placedCell(String guid) {
        return jdbc.queryForObject("SELECT coalesce(placed_cell_id, placement_error) FROM actual_lrps "
                + "WHERE process_guid = ?", String.class, guid);
    }

    private double reconciles(String trigger) {
        Timer timer = meters.find("drover.auction.allocation.reconcile").tag("trigger", trigger).timer();
        return timer == null ? 0 : timer.count();
    }

    private double counter(String name) {
        return meters.get(name).counter().count();
    }

    private List<String> placedCells(String guid) {
        return jdbc.queryForList("SELECT placed_cell_id FROM actual_lrps WHERE process_guid = ? "
                + "AND placed_cell_id IS NOT NULL", String.class, guid);
    }

    private static Map<String, Integer> countByCell(List<String> cells) {
        Map<String, Integer> counts = new HashMap<>();
        cells.forEach(c -> counts.merge(c, 1, Integer::sum));
        return counts;
    }

    static CellRegistration cell(String id, String zone, Resources capacity) {
        return cell(id, zone, capacity, "preloaded:host");
    }

    static CellRegistration cell(String id, String zone, Resources capacity, String rootfs) {
        return new CellRegistration(id, zone, id + ".local:1800", capacity, List.of(rootfs), List.of(), List.of());
    }

    static DesiredLrpDefinition lrp(String guid, int instances, int memoryMb) {
        return lrp(guid, instances, memoryMb, "preloaded:host");
    }

    static DesiredLrpDefinition lrp(String guid, int instances, int memoryMb, String rootfs) {
        return new DesiredLrpDefinition(guid, "it", rootfs, instances,
                new Action(new RunAction("sleep", List.of("1000"), null, null, null)), null, null, 0, null, List.of(8080),
                memoryMb, 128, 0, 0, new ArrayList<>(), null, null, null, null);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Clocks {

        @Bean
        MutableClock clock() {
            return MutableClock.startingNow();
        }
    }
}
