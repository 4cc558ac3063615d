package io.drover.model.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.drover.model.cell.Cell;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.json.Json;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpSnapshot;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.CrashRestartPolicy;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.DesiredLrpSnapshot;
import io.drover.model.lrp.DesiredLrpUpdate;
import io.drover.model.lrp.EnvVar;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.RunAction;
import io.drover.model.lrp.StartedInstance;
import io.drover.test.MutableClock;
import io.drover.test.WithDroverInfrastructure;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.core.type.TypeReference;

/** The read model's queries on real PostgreSQL, against what the lifecycle wrote through legal transitions. */
@SpringBootTest
@WithDroverInfrastructure
class ReadModelIT {

    static final Actor TEST = Actor.service("test");
    static final NetInfo NET = new NetInfo("10.0.0.9", List.of(new NetInfo.PortMapping(8080, 61005)));

    @Autowired
    ActualLrpRows actualRows;
    @Autowired
    DesiredLrpRows desiredRows;
    @Autowired
    ActualLrpSummaries summaries;
    @Autowired
    ActualLrpOwners owners;
    @Autowired
    LiveCells liveCells;
    @Autowired
    CellLoads loads;
    @Autowired
    ConsistentReads consistent;
    @Autowired
    ActualLrpLifecycle actuals;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    ActualLrpRepository actualEntities;
    @Autowired
    CellPresence presence;
    @Autowired
    CrashRestartPolicy policy;
    @Autowired
    MutableClock clock;

    String domain;

    @BeforeEach
    void newDomain() {
        domain = "read-" + UUID.randomUUID();
    }

    @Test
    void anActualRowCarriesWhatTheEntityShowsInEveryState() {
        String guid = desire("states", 4, 128);
        String cell = liveCell(false);
        run(ActualLrpKey.of(guid, 1), cell);
        run(ActualLrpKey.of(guid, 2), cell);
        for (int crash = 1; crash <= 3; crash++) {
            InstanceOwner owner = run(ActualLrpKey.of(guid, 3), cell);
            actuals.crash(ActualLrpKey.of(guid, 3), owner, "exited with code " + crash, TEST);
        }
        actuals.failPlacement(Map.of(ActualLrpKey.of(guid, 0), "no cells available"), TEST);

        List<ActualLrpRow> rows = actualRows.ofProcess(guid);
        assertThat(rows).extracting(ActualLrpRow::state).containsExactly(ActualLrpState.UNCLAIMED,
                ActualLrpState.RUNNING, ActualLrpState.RUNNING, ActualLrpState.CRASHED);
        for (ActualLrpRow row : rows) {
            ActualLrpSnapshot expected = actualEntities.findById(row.key()).orElseThrow().snapshot(policy);
            assertThat(asSnapshot(row)).isEqualTo(expected);
            assertThat(actualRows.find(row.key())).contains(row);
        }
        assertThat(rows.get(3).nextRestartAtMillis(policy)).as("a CRASHED instance's restart").isNotNull();
        assertThat(actualRows.find(ActualLrpKey.of(guid, 7))).isEmpty();
    }

    @Test
    void keysetPagesWalkEveryInstanceOnceInKeyOrder() {
        String a = desire("page-a", 5, 64);
        String b = desire("page-b", 4, 64);
        List<ActualLrpRow> all = actualRows.page(domain, null, 100);
        assertThat(all).hasSize(9);
        assertThat(walk(domain, 2)).isEqualTo(all);
        assertThat(walk(domain, 9)).isEqualTo(all);
        assertThat(all).extracting(ActualLrpRow::processGuid).containsOnly(a, b);

        List<ActualLrpKey> everything = new ArrayList<>();
        walk(null, 1_000).forEach(row -> everything.add(row.key()));
        assertThat(everything).doesNotHaveDuplicates().hasSize(actualEntities.findAllOrdered().size())
                .containsAll(all.stream().map(ActualLrpRow::key).toList());
    }

    @Test
    void aFingerprintChangesWithEveryCreateChangeAndDeleteAndOnlyThen() {
        String guid = desire("fingerprint", 2, 64);
        ListFingerprint first = actualRows.fingerprint(domain);
        assertThat(first.rows()).isEqualTo(2);
        assertThat(actualRows.fingerprint(domain)).isEqualTo(first);

        actuals.place(UUID.randomUUID(), Map.of(ActualLrpKey.of(guid, 0), "cell-x"), TEST);
        ListFingerprint changed = actualRows.fingerprint(domain);
        assertThat(changed).isNotEqualTo(first);
        assertThat(changed.rows()).isEqualTo(2);

        actuals.retire(List.of(ActualLrpKey.of(guid, 1)), "test", TEST);
        ListFingerprint deleted = actualRows.fingerprint(domain);
        assertThat(deleted.rows()).isEqualTo(1);
        actuals.createUnclaimed(guid, domain, List.of(1), "test", TEST);
        assertThat(actualRows.fingerprint(domain)).as("re-created: a new epoch").isNotEqualTo(changed)
                .isNotEqualTo(deleted);
        assertThat(actualRows.fingerprint("no-such-domain")).isEqualTo(new ListFingerprint(0, "0"));
    }

    @Test
    void aDesiredRowReadsBackTheDefinitionItWasCreatedWith() {
        String guid = desire("desired-a", 1, 256);
        DesiredLrpSnapshot updated = desired.update(guid,
                new DesiredLrpUpdate(null, "{\"http\":[\"a.example\"]}", "v2"), List.of(), TEST);
        DesiredLrpRow row = desiredRows.find(guid).orElseThrow();
        assertThat(row.definition()).isEqualTo(updated.definition());
        assertThat(row.modificationTag()).isEqualTo(updated.modificationTag()).extracting(t -> t.index()).isEqualTo(1L);
        assertThat(row.createdAt()).as("as stored: PostgreSQL keeps microseconds")
                .isCloseTo(updated.createdAt(), within(1, ChronoUnit.MICROS));
        assertThat(row.updatedAt()).isCloseTo(updated.updatedAt(), within(1, ChronoUnit.MICROS));
        assertThat(desiredRows.modificationTag(guid)).contains(updated.modificationTag());
        assertThat(desiredRows.modificationTag("nothing-" + guid)).isEmpty();
        assertThat(desiredRows.definitions(List.of(guid, "nothing-" + guid))).containsOnlyKeys(guid);

        String other = desire("desired-b", 0, 64);
        ListFingerprint before = desiredRows.fingerprint(domain);
        assertThat(desiredRows.page(domain, null, 10)).extracting(DesiredLrpRow::processGuid)
                .containsExactly(guid, other);
        assertThat(desiredRows.page(domain, guid, 10)).extracting(DesiredLrpRow::processGuid).containsExactly(other);
        desired.update(other, new DesiredLrpUpdate(1, null, null), List.of(), TEST);
        assertThat(desiredRows.fingerprint(domain)).isNotEqualTo(before).extracting(ListFingerprint::rows)
                .isEqualTo(2L);
    }

    @Test
    void summariesAndOwnersSeeStatesOwnersAndPlacements() {
        String guid = desire("owners", 3, 64);
        String cell = liveCell(false);
        run(ActualLrpKey.of(guid, 0), cell);
        actuals.place(UUID.randomUUID(), Map.of(ActualLrpKey.of(guid, 1), cell), TEST);

        Map<ActualLrpKey, ActualLrpSummary> mine = consistent.inOneSnapshot(() -> {
            Map<ActualLrpKey, ActualLrpSummary> found = new java.util.HashMap<>();
            summaries.forEach(s -> {
                if (s.processGuid().equals(guid)) {
                    found.put(s.key(), s);
                }
            });
            return found;
        });
        assertThat(mine).hasSize(3);
        assertThat(mine.get(ActualLrpKey.of(guid, 0))).extracting(ActualLrpSummary::state, ActualLrpSummary::cellId,
                ActualLrpSummary::domain).containsExactly(ActualLrpState.RUNNING, cell, domain);
        assertThat(mine.get(ActualLrpKey.of(guid, 1))).extracting(ActualLrpSummary::placedCellId).isEqualTo(cell);
        assertThat(mine.get(ActualLrpKey.of(guid, 1)).placedAt()).isNotNull();
        assertThat(mine.get(ActualLrpKey.of(guid, 2)).placedAt()).isNull();

        assertThat(owners.ownedBy(cell)).extracting(ActualLrpOwner::key).containsExactly(ActualLrpKey.of(guid, 0));
        Map<ActualLrpKey, ActualLrpOwner> some = owners.of(List.of(ActualLrpKey.of(guid, 0), ActualLrpKey.of(guid, 1),
                ActualLrpKey.of(guid, 9)));
        assertThat(some).containsOnlyKeys(ActualLrpKey.of(guid, 0), ActualLrpKey.of(guid, 1));
        assertThat(some.get(ActualLrpKey.of(guid, 0)).instanceGuid()).isEqualTo("ig-" + guid + ".0");
        assertThat(some.get(ActualLrpKey.of(guid, 1)).placedCellId()).isEqualTo(cell);
    }

    @Test
    void liveCellsAreThoseWhosePresenceHasNotExpired() {
        String active = liveCell(false);
        String evacuating = liveCell(true);
        assertThat(liveCells.cells()).extracting(Cell::cellId).contains(active, evacuating);
        assertThat(liveCells.schedulable()).extracting(Cell::cellId).contains(active).doesNotContain(evacuating);
        assertThat(liveCells.ids(clock.instant())).contains(active, evacuating);
        var before = clock.instant();
        clock.advance(Duration.ofMinutes(2));
        assertThat(liveCells.ids(clock.instant())).doesNotContain(active, evacuating);
        assertThat(liveCells.census(before, clock.instant()).expired()).isGreaterThanOrEqualTo(2);
        assertThat(presence.live()).extracting(Cell::cellId).doesNotContain(active);
    }

    @Test
    void aCellCarriesItsOwnedAndPlacedInstancesAtTheirDesiredSize() {
        String guid = desire("loads", 3, 128);
        String cell = liveCell(false);
        run(ActualLrpKey.of(guid, 0), cell);
        actuals.place(UUID.randomUUID(), Map.of(ActualLrpKey.of(guid, 1), cell), TEST);

        assertThat(loads.used(List.of(cell))).containsEntry(cell, new Resources(256, 128, 2));
        assertThat(loads.used(List.of(liveCell(false)))).as("only the cells named are read").doesNotContainKey(cell);
        CellAllocation allocation = loads.allocations().get(cell);
        assertThat(allocation.used()).isEqualTo(new Resources(256, 128, 2));
        assertThat(allocation.starting()).isEqualTo(1);
        assertThat(allocation.instancesByProcessGuid()).isEqualTo(Map.of(guid, 2));
        assertThat(loads.totals().get(cell)).as("the same without the counts")
                .isEqualTo(new CellAllocation(new Resources(256, 128, 2), 1, Map.of()));
    }

    @Test
    void aCellCarriesTheTwinsOnItLikeInstancesButSpreadsFromNone() {
        String guid = desire("twins", 2, 128);
        String cell = liveCell(false);
        InstanceOwner zero = run(ActualLrpKey.of(guid, 0), cell);
        run(ActualLrpKey.of(guid, 1), cell);

        actuals.evacuate(Map.of(ActualLrpKey.of(guid, 0), zero), TEST);

        assertThat(loads.used(List.of(cell))).containsEntry(cell, new Resources(256, 128, 2));
        CellAllocation allocation = loads.allocations().get(cell);
        assertThat(allocation.used()).as("the twin holds what its instance held").isEqualTo(new Resources(256, 128, 2));
        assertThat(allocation.starting()).isZero();
        assertThat(allocation.instancesByProcessGuid()).as("only the instance still in its slot").isEqualTo(
                Map.of(guid, 1));
    }

    private List<ActualLrpRow> walk(String inDomain, int pageSize) {
        List<ActualLrpRow> walked = new ArrayList<>();
        ActualLrpKey after = null;
        while (true) {
            List<ActualLrpRow> page = actualRows.page(inDomain, after, pageSize);
            walked.addAll(page);
            if (page.size() < pageSize) {
                return walked;
            }
            after = page.get(page.size() - 1).key();
        }
    }

    private ActualLrpSnapshot asSnapshot(ActualLrpRow row) {
        List<NetInfo.PortMapping> ports = row.address() == null || row.portsJson() == null ? List.of()
                : Json.read(row.portsJson(), new TypeReference<List<NetInfo.PortMapping>>() { });
        return new ActualLrpSnapshot(row.processGuid(), row.index(), row.domain(), row.instanceGuid(), row.cellId(),
                row.address(), ports, row.state(), row.crashCount(), row.crashReason(), row.placementError(),
                row.sinceMillis(), row.nextRestartAtMillis(policy), false, row.modificationTag(), row.definitionVersion());
    }

    private InstanceOwner run(ActualLrpKey key, String cell) {
        InstanceOwner owner = InstanceOwner.of("ig-" + key, cell);
        actuals.claim(key, owner, Actor.cell(cell));
        actuals.start(new StartedInstance(key, domain, owner, NET), Actor.cell(cell));
        return owner;
    }

    private String desire(String prefix, int instances, int memoryMb) {
        String guid = prefix + "-" + UUID.randomUUID();
        desired.desire(new DesiredLrpDefinition(guid, domain, "preloaded:host", instances,
                new Action(new RunAction("sleep", List.of("100"), null, List.of(new EnvVar("A", "1")), null)),
                new RunAction("true", null, "/tmp", null, new RunAction.ResourceLimits(64L)),
                new CheckDefinition(List.of()), 30, List.of(new EnvVar("B", "é")), List.of(8080, 9090), memoryMb,
                memoryMb / 2, 10, 5, List.of("ssd"), "{\"http\":[\"x.example\"]}", "note", "log", "metrics"), TEST);
        return guid;
    }

    private String liveCell(boolean evacuating) {
        String cell = "cell-" + UUID.randomUUID();
        presence.heartbeat(new CellRegistration(cell, "z1", "10.0.0.1", new Resources(4096, 4096, 10),
                List.of("preloaded:host"), List.of(), List.of()), Duration.ofSeconds(60));
        if (evacuating) {
            presence.evacuate(cell);
        }
        return cell;
    }

    static Set<String> ids(List<Cell> cells) {
        return Set.copyOf(cells.stream().map(Cell::cellId).toList());
    }
}
