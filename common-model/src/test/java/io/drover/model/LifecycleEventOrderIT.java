package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.json.Json;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpNotFoundException;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.CrashReport;
import io.drover.model.lrp.DesiredLrpAlreadyExistsException;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.DesiredLrpNotFoundException;
import io.drover.model.lrp.DesiredLrpUpdate;
import io.drover.model.lrp.IllegalTransitionException;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.LifecycleConflictException;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.RunAction;
import io.drover.model.lrp.StaleModificationTagException;
import io.drover.model.lrp.StartedInstance;
import io.drover.test.WithDroverInfrastructure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * The event stream's order under concurrent writers, searched for rather than staged: writers race every lifecycle
 * write the services make (desire, scale, delete, the converger's repair and retire, the auction's placement, a cell's
 * claim, start, crash, removal and drain) on three LRPs of three indices each, and the published events, read in the
 * relay's {@code (tx_id, id)} order, must chain as the truth checker's events check demands: per record (a slot's
 * record or its twin) each change starts where the last event left it (state, instance guid, epoch; a modification
 * index no older), a creation follows a removal; per desired LRP the same by epoch and index. Seeded: a failure names
 * its seed. {@code InstanceSlotIT} pins each interleaving found this way once understood.
 */
@SpringBootTest
@WithDroverInfrastructure
class LifecycleEventOrderIT {

    static final Actor USER = Actor.service("receptor");
    static final Actor CONVERGER = Actor.service("converger");
    static final NetInfo NET = new NetInfo("10.0.0.1", List.of(new NetInfo.PortMapping(8080, 61000)));
    static final int WRITERS = 6;
    static final int OPERATIONS = 300;

    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    ActualLrpLifecycle actual;
    @Autowired
    ActualLrpRepository actuals;
    @Autowired
    CellPresence cells;
    @Autowired
    JdbcTemplate jdbc;

    @Test
    void concurrentWritersPublishEveryRecordsLifeInOrder() throws Exception {
        long seed = System.nanoTime();
        String run = "order-" + Long.toHexString(seed);
        List<String> guids = List.of(run + "-a", run + "-b", run + "-c");
        List<String> cellIds = List.of(run + "-cell-1", run + "-cell-2");
        cellIds.forEach(c -> cells.heartbeat(new CellRegistration(c, "z1", "10.0.0.1", new Resources(65536, 65536, 256),
                List.of("preloaded:host"), List.of(), List.of()), Duration.ofMinutes(5)));
        List<String> unexpected = new CopyOnWriteArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            Random random = new Random(seed + w);
            writers.add(pool.submit(() -> {
                for (int i = 0; i < OPERATIONS; i++) {
                    try {
                        operate(random, guids, cellIds);
                    } catch (IllegalTransitionException | ActualLrpNotFoundException | DesiredLrpNotFoundException
                            | DesiredLrpAlreadyExistsException | StaleModificationTagException
                            | LifecycleConflictException e) {
                        // a decision, or a race lost beyond the retries: what the services meet as well
                    } catch (RuntimeException e) {
                        unexpected.add(e.toString());
                    }
                }
                return null;
            }));
        }
        for (Future<?> writer : writers) {
            writer.get(3, TimeUnit.MINUTES);
        }
        pool.shutdown();

        assertThat(unexpected).as("failures other than decisions and lost races (seed %d)", seed).isEmpty();
        List<String> events = new ArrayList<>();
        List<String> anomalies = chains(guids, events);
        assertThat(events.size()).as("events published (seed %d)", seed).isGreaterThan(WRITERS * OPERATIONS / 4);
        assertThat(anomalies).as("events out of order (seed %d)", seed).isEmpty();
    }

    /** One write, chosen at random, as a service would make it (the cells' writes from what the record says now). */
    private void operate(Random random, List<String> guids, List<String> cellIds) {
        String guid = guids.get(random.nextInt(guids.size()));
        ActualLrpKey key = ActualLrpKey.of(guid, random.nextInt(3));
        String cell = cellIds.get(random.nextInt(cellIds.size()));
        switch (random.nextInt(12)) {
            case 0, 1 -> desired.desire(definition(guid, 1 + random.nextInt(3)), USER);
            case 2 -> desired.update(guid, DesiredLrpUpdate.scale(random.nextInt(4)), List.of(), USER);
            case 3 -> desired.remove(guid, USER);
            case 4 -> actual.createMissing(guid, "d1", List.of(0, 1, 2), "missing index", CONVERGER);
            case 5 -> actual.retire(List.of(key), "extra index", CONVERGER);
            case 6 -> actual.place(UUID.randomUUID(), Map.of(key, cell), Actor.service("auctioneer"));
            case 7 -> actual.claim(Map.of(key, InstanceOwner.of(UUID.randomUUID().toString(), cell)), Actor.cell(cell));
            case 8 -> owner(key, ActualLrpState.CLAIMED).ifPresent(o -> actual.start(List.of(new StartedInstance(key,
                    "d1", o, NET)), Actor.cell(o.cellId())));
            case 9 -> owner(key, null).ifPresent(o -> actual.crashAll(Map.of(key, new CrashReport(o, "exit 1")),
                    Actor.cell(o.cellId())));
            case 10 -> owner(key, ActualLrpState.RUNNING).ifPresent(o -> actual.evacuate(Map.of(key, o),
                    Actor.cell(o.cellId())));
            default -> {
                InstanceOwner o = random.nextBoolean() ? twin(key) : owner(key, null).orElse(null);
                if (o != null) {
                    actual.removeAll(Map.of(key, o), "container stopped", Actor.cell(o.cellId()));
                }
            }
        }
    }

    /** The record's owner, when it has one (in {@code state}, unless null). */
    private Optional<InstanceOwner> owner(ActualLrpKey key, ActualLrpState state) {
        return actuals.findById(key).filter(a -> a.instanceGuid() != null && (state == null || a.state() == state))
                .map(a -> InstanceOwner.of(a.instanceGuid(), a.cellId()));
    }

    private InstanceOwner twin(ActualLrpKey key) {
        return jdbc.query("SELECT instance_guid, cell_id FROM evacuating_lrps WHERE process_guid = ? AND "
                + "instance_index = ?", rs -> rs.next() ? InstanceOwner.of(rs.getString(1), rs.getString(2)) : null,
                key.processGuid(), key.index());
    }

    /** Follows every published event of these LRPs in the relay's order; returns what does not chain. */
    private List<String> chains(List<String> guids, List<String> events) {
        Map<String, JsonNode> ended = new HashMap<>();
        Map<String, String> previousAt = new HashMap<>();
        Map<String, List<String>> lives = new HashMap<>();
        Set<String> broken = new HashSet<>();
        List<String> anomalies = new ArrayList<>();
        // e.tx_id: the column, not the text of it in the output (which would sort 1001 before 775)
        jdbc.query("SELECT e.tx_id::text AS position, e.id, convert_from(e.payload, 'UTF8'), e.reason, e.actor_service "
                + "FROM lrp_events e "
                + "WHERE e.process_guid = ANY (?) AND e.payload IS NOT NULL ORDER BY e.tx_id, e.id", rs -> {
                    JsonNode event = Json.tree(rs.getString(3));
                    String type = event.path("type").asString();
                    if (type.equals("actual_lrp_crashed") || !(type.startsWith("actual_lrp_")
                            || type.startsWith("desired_lrp_"))) {
                        return;
                    }
                    JsonNode before = event.get("before");
                    JsonNode after = event.get("after");
                    before = before == null || before.isNull() ? null : before;
                    after = after == null || after.isNull() ? null : after;
                    JsonNode any = before != null ? before : after;
                    String key = type.startsWith("desired_lrp_") ? "desired " + any.path("process_guid").asString()
                            : any.path("process_guid").asString() + "/" + any.path("index").asInt()
                                    + (any.path("evacuating").asBoolean() ? " (twin)" : "");
                    String epoch = any.path("modification_tag").path("epoch").asString();
                    String position = rs.getString(1) + "-" + rs.getLong(2) + " " + type + " of " + epoch.substring(
                            Math.max(0, epoch.length() - 4)) + " (" + rs.getString(5) + ": " + rs.getString(4) + ")";
                    events.add(position);
                    lives.computeIfAbsent(key, k -> new ArrayList<>()).add(position);
                    if (broken.contains(key)) {
                        return;
                    }
                    boolean seen = ended.containsKey(key);
                    JsonNode last = ended.put(key, after);
                    String wrong = follows(seen, last, before, type.startsWith("actual_lrp_"));
                    String previous = previousAt.put(key, position);
                    if (wrong != null) {
                        broken.add(key); // its first anomaly only
                        anomalies.add(key + " at " + position + ": " + wrong + "; previous: " + previous);
                    }
                }, (Object) guids.toArray(String[]::new));
        broken.forEach(key -> anomalies.add(key + ", its whole life in the stream: " + lives.get(key)));
        return anomalies;
    }

    /** Why an event from {@code before} cannot follow the last event, which left {@code last}; null when it can. */
    private static String follows(boolean seen, JsonNode last, JsonNode before, boolean instance) {
        if (!seen) {
            return before == null ? null : "its first event is not its creation";
        }
        if (last == null) {
            return before == null ? null : "a change of a removed record: its creation is missing or out of order";
        }
        if (before == null) {
            return "created again while it exists: its removal is missing or out of order";
        }
        JsonNode was = last.path("modification_tag");
        JsonNode is = before.path("modification_tag");
        if (!was.path("epoch").equals(is.path("epoch"))) {
            return "from epoch " + is.path("epoch") + ", the last event left " + was.path("epoch");
        }
        if (instance && !(last.path("state").equals(before.path("state"))
                && Objects.equals(text(last, "instance_guid"), text(before, "instance_guid")))) {
            return "from " + before.path("state") + " " + text(before, "instance_guid") + ", the last event left "
                    + last.path("state") + " " + text(last, "instance_guid");
        }
        if (is.path("index").asLong() < was.path("index").asLong()) {
            return "from modification index " + is.path("index") + ", older than the last event's " + was.path("index");
        }
        return null;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }

    private static DesiredLrpDefinition definition(String guid, int instances) {
        return new DesiredLrpDefinition(guid, "d1", "preloaded:host", instances,
                new Action(new RunAction("sleep", List.of("100"), null, null, null)), null, null, 0, null,
                List.of(8080), 16, 16, 0, 0, null, null, null, null, null);
    }
}
