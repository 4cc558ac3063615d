package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.drover.model.cell.Cell;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.CellState;
import io.drover.model.cell.Resources;
import io.drover.model.domain.Domains;
import io.drover.model.leader.LeaderElection;
import io.drover.model.leader.LeaderLock;
import io.drover.model.leader.LeadershipFence;
import io.drover.model.leader.LeadershipLostException;
import io.drover.model.read.LiveCells;
import io.drover.test.MutableClock;
import io.drover.test.WithDroverInfrastructure;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/** Cell presence, domain freshness and leader locks: the TTL-based state every loop relies on. */
@SpringBootTest
@WithDroverInfrastructure
class PresenceAndLocksIT {

    static final Duration TTL = Duration.ofSeconds(15);

    @Autowired
    CellPresence cells;
    @Autowired
    Domains domains;
    @Autowired
    LeaderLock locks;
    @Autowired
    MutableClock clock;
    @Autowired
    org.springframework.jdbc.core.JdbcTemplate jdbc;

    @Test
    void aCellIsLiveUntilItsHeartbeatExpires() {
        String cell = "cell-" + UUID.randomUUID();
        cells.heartbeat(registration(cell, 1024), TTL);
        assertThat(cells.live()).extracting(Cell::cellId).contains(cell);

        clock.advance(TTL.minusSeconds(1));
        cells.heartbeat(registration(cell, 2048), TTL);
        clock.advance(TTL.minusSeconds(1));
        Cell live = cells.find(cell).orElseThrow();
        assertThat(live.isSchedulable(clock.instant())).isTrue();
        assertThat(live.capacity().memoryMb()).as("a heartbeat refreshes the advertised capacity").isEqualTo(2048);
        assertThat(live.version()).isEqualTo(1);

        clock.advance(Duration.ofSeconds(2));
        assertThat(cells.live()).extracting(Cell::cellId).doesNotContain(cell);
        assertThat(cells.all()).extracting(Cell::cellId).contains(cell);
    }

    @Test
    void aCellsPresenceIsALockThatAnotherHolderCannotTakeWhileItLasts() {
        String cell = "cell-" + UUID.randomUUID();
        String first = "rep-" + UUID.randomUUID();
        String second = "rep-" + UUID.randomUUID();
        assertThat(cells.heartbeat(first, List.of(beat(cell, 1024)), TTL)).isEmpty();
        Cell held = cells.find(cell).orElseThrow();

        clock.advance(TTL.minusSeconds(1));
        assertThat(cells.heartbeat(second, List.of(beat(cell, 2048)), TTL))
                .containsExactly(new CellPresence.Refusal(cell, first, held.expiresAt()));
        assertThat(cells.find(cell).orElseThrow()).as("a refused beat writes nothing").isEqualTo(held);
        cells.evacuate(cell, second);
        cells.remove(cell, second);
        assertThat(cells.find(cell).orElseThrow()).as("nor can its holder's rivals drain or remove it").isEqualTo(held);

        clock.advance(Duration.ofSeconds(1));
        assertThat(cells.heartbeat(second, List.of(beat(cell, 2048)), TTL)).as("taken over once expired").isEmpty();
        assertThat(cells.find(cell).orElseThrow().capacity().memoryMb()).isEqualTo(2048);
        assertThat(cells.heartbeat(first, List.of(beat(cell, 1024)), TTL)).as("the old holder learns it lost")
                .extracting(CellPresence.Refusal::heldBy).containsExactly(second);
    }

    @Test
    void oneStatementSaysWhichOfItsCellsWereRefused() {
        String mine = "cell-" + UUID.randomUUID();
        String theirs = "cell-" + UUID.randomUUID();
        String holder = "rep-" + UUID.randomUUID();
        cells.heartbeat(registration(theirs, 512), TTL);

        List<CellPresence.Refusal> refused = cells.heartbeat(holder, List.of(beat(mine, 512), beat(theirs, 512)), TTL);

        assertThat(refused).extracting(CellPresence.Refusal::cellId, CellPresence.Refusal::heldBy)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(theirs, CellPresence.UNNAMED));
        assertThat(cells.live()).extracting(Cell::cellId).contains(mine, theirs);
    }

    @Test
    void aReleasedPresenceIsTakenOverAtOnceAndStaysLiveMeanwhile() {
        String cell = "cell-" + UUID.randomUUID();
        String stopped = "rep-" + UUID.randomUUID();
        assertThat(cells.heartbeat(stopped, List.of(beat(cell, 1024)), TTL)).isEmpty();
        cells.release(stopped, List.of(cell));
        assertThat(cells.live()).extracting(Cell::cellId).as("its instances keep their cell").contains(cell);

        assertThat(cells.heartbeat("rep-" + UUID.randomUUID(), List.of(beat(cell, 1024)), TTL)).isEmpty();
        cells.remove(cell, stopped);
        assertThat(cells.find(cell)).isPresent();
    }

    @Test
    void aDrainingCellStaysEvacuatingThroughItsHeartbeatsButTakesNoWork() {
        String cell = "cell-" + UUID.randomUUID();
        cells.heartbeat(registration(cell, 1024), TTL);
        cells.evacuate(cell);
        cells.heartbeat(CellPresence.UNNAMED, List.of(new CellPresence.Heartbeat(registration(cell, 1024),
                CellState.EVACUATING, null)), TTL);
        Cell evacuating = cells.find(cell).orElseThrow();
        assertThat(evacuating.state()).isEqualTo(CellState.EVACUATING);
        assertThat(evacuating.isLive(clock.instant())).isTrue();
        assertThat(evacuating.isSchedulable(clock.instant())).isFalse();

        cells.remove(cell);
        assertThat(cells.find(cell)).isEmpty();
    }

    @Test
    void aCellWhoseDrainWasInterruptedIsActiveAgainOnceItsRepBeatsWithoutDraining() {
        String cell = "cell-" + UUID.randomUUID();
        cells.heartbeat(registration(cell, 1024), TTL);
        cells.evacuate(cell); // the rep is killed mid-drain; a new one starts and does not drain
        cells.heartbeat(registration(cell, 1024), TTL);
        assertThat(cells.find(cell).orElseThrow().state()).isEqualTo(CellState.ACTIVE);
    }

    @Test
    void oneStatementBeatsForManyCellsEachWithHowFarItGotWithItsPlacements() {
        Instant now = clock.instant();
        List<CellPresence.Heartbeat> beats = java.util.stream.IntStream.range(0, 50)
                .mapToObj(i -> new CellPresence.Heartbeat(registration("many-" + i + "-" + UUID.randomUUID(), 512),
                        i % 2 == 0 ? CellState.ACTIVE : CellState.EVACUATING,
                        i % 3 == 0 ? null : now.minusSeconds(i).truncatedTo(ChronoUnit.MILLIS)))
                .toList();
        assertThat(cells.heartbeat("rep-" + UUID.randomUUID(), beats, TTL)).isEmpty();
        Map<String, Instant> through = new LiveCells(jdbc, clock).placementsThrough(now);
        for (CellPresence.Heartbeat beat : beats) {
            Cell stored = cells.find(beat.registration().cellId()).orElseThrow();
            assertThat(stored.state()).isEqualTo(beat.state());
            assertThat(stored.registration()).isEqualTo(beat.registration());
            assertThat(through.get(beat.registration().cellId())).as("a rep that cannot say counts as through now")
                    .isEqualTo(beat.placementsThrough() == null ? now : beat.placementsThrough());
        }
    }

    /**
     * A beat moves {@code expires_at} on, and nothing else indexed: PostgreSQL rewrites the cell's row and its presence
     * lock on their pages, with no index entry (heap-only tuples). 10,000 cells beat 2,000 times a second; with an index
     * on {@code cells.expires_at} none of those rewrites was heap-only. Fails when such an index comes back, or when
     * pages are packed too full to take the new version.
     */
    @Test
    void aHeartbeatRewritesItsRowsInPlaceWithoutTouchingAnIndex() {
        String rep = "rep-" + UUID.randomUUID();
        List<CellPresence.Heartbeat> beats = java.util.stream.IntStream.range(0, 50)
                .mapToObj(i -> beat("in-place-" + i + "-" + UUID.randomUUID(), 512)).toList();
        assertThat(cells.heartbeat(rep, beats, TTL)).isEmpty();
        Map<String, long[]> before = updates();
        int rounds = 10;
        for (int round = 0; round < rounds; round++) {
            clock.advance(Duration.ofSeconds(1));
            assertThat(cells.heartbeat(rep, beats, TTL)).isEmpty();
        }
        int rewrites = rounds * beats.size();
        // each backend reports its counts when it goes idle, at most once a second
        await().atMost(Duration.ofSeconds(60)).until(() -> updates().entrySet().stream()
                .allMatch(e -> e.getValue()[0] - before.get(e.getKey())[0] >= rewrites));
        updates().forEach((table, now) -> assertThat(now[1] - before.get(table)[1])
                .as("heap-only updates of %s among %d", table, now[0] - before.get(table)[0])
                .isGreaterThanOrEqualTo(rewrites * 9L / 10));
    }

    /** Updates and heap-only updates of {@code cells} and {@code leader_locks}, by table. */
    private Map<String, long[]> updates() {
        Map<String, long[]> counts = new java.util.HashMap<>();
        jdbc.query("SELECT relname, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables "
                + "WHERE relname IN ('cells', 'leader_locks')",
                rs -> {
                    counts.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3)});
                });
        return counts;
    }

    @Test
    void aCellAdvertisesWhereItServesLogsAndCanStopDoingSo() {
        String cell = "cell-" + UUID.randomUUID();
        cells.heartbeat(registration(cell, 1024).withLogEndpoint("http://10.0.0.1:1801"), TTL);
        assertThat(cells.find(cell).orElseThrow().registration().logEndpoint()).isEqualTo("http://10.0.0.1:1801");
        cells.heartbeat(registration(cell, 1024), TTL);
        assertThat(cells.find(cell).orElseThrow().registration().logEndpoint()).isNull();
    }

    @Test
    void aDomainIsFreshForItsTtlOrForeverWithout() {
        String expiring = "domain-" + UUID.randomUUID();
        String forever = "domain-" + UUID.randomUUID();
        domains.upsert(expiring, Duration.ofSeconds(30));
        domains.upsert(forever, null);
        assertThat(domains.fresh()).contains(expiring, forever);

        clock.advance(Duration.ofSeconds(31));
        assertThat(domains.fresh()).contains(forever).doesNotContain(expiring);
        assertThat(domains.deleteExpired(clock.instant())).isPositive();
        domains.upsert(expiring, Duration.ofSeconds(30));
        assertThat(domains.fresh()).contains(expiring);
    }

    @Test
    void aLeaderLockHasOneHolderUntilItExpiresOrIsReleased() {
        String lock = "converger-" + UUID.randomUUID();
        assertThat(locks.tryAcquire(lock, "a", TTL)).isTrue();
        assertThat(locks.tryAcquire(lock, "b", TTL)).isFalse();
        clock.advance(TTL.minusSeconds(1));
        assertThat(locks.tryAcquire(lock, "a", TTL)).as("renewal").isTrue();
        clock.advance(TTL.minusSeconds(1));
        assertThat(locks.tryAcquire(lock, "b", TTL)).as("renewed lock still held").isFalse();

        clock.advance(Duration.ofSeconds(2));
        assertThat(locks.tryAcquire(lock, "b", TTL)).as("taken over after expiry").isTrue();
        assertThat(locks.tryAcquire(lock, "a", TTL)).as("the old holder learns it lost").isFalse();

        locks.release(lock, "b");
        assertThat(locks.tryAcquire(lock, "a", TTL)).as("a release hands over at once").isTrue();
    }

    @Test
    void aLockIsHeldByItsHolderOfRecordUntilAnotherTakesIt() {
        String lock = "converger-" + UUID.randomUUID();
        assertThat(locks.isHeld(lock, "a")).as("no lock row yet").isFalse();
        assertThat(locks.tryAcquire(lock, "a", TTL)).isTrue();
        assertThat(locks.isHeld(lock, "a")).isTrue();
        assertThat(locks.isHeld(lock, "b")).isFalse();
        clock.advance(TTL.plusSeconds(1));
        assertThat(locks.isHeld(lock, "a")).as("expired, but nobody took it yet").isTrue();
        assertThat(locks.tryAcquire(lock, "b", TTL)).isTrue();
        assertThat(locks.isHeld(lock, "a")).as("taken over").isFalse();
    }

    @Test
    void aFenceLetsItsLeaderWriteUntilAnotherTookTheLock() {
        String lock = "converger-" + UUID.randomUUID();
        LeaderElection election = new LeaderElection(locks, lock, TTL, () -> { }, () -> { });
        LeadershipFence fence = new LeadershipFence(locks, election);
        assertThat(locks.tryAcquire(lock, election.holder(), TTL)).isTrue();

        fence.run();
        clock.advance(TTL.plusSeconds(1));
        fence.run(); // expired, but still its holder of record
        assertThat(locks.tryAcquire(lock, "standby", TTL)).isTrue();

        assertThatThrownBy(fence::run).isInstanceOf(LeadershipLostException.class)
                .hasMessage("lock " + lock + " is no longer held by " + election.holder());
    }

    @Test
    void aLeaderThatCannotStartItsWorkGivesTheLockToOneThatCan() {
        String lock = "auctioneer-" + UUID.randomUUID();
        AtomicInteger attempts = new AtomicInteger();
        AtomicInteger undone = new AtomicInteger();
        LeaderElection broken = new LeaderElection(locks, lock, Duration.ofMillis(300), () -> {
            attempts.incrementAndGet();
            throw new IllegalStateException("broker name does not resolve");
        }, undone::incrementAndGet);
        LeaderElection healthy = new LeaderElection(locks, lock, Duration.ofMillis(300), () -> { }, () -> { });
        broken.start();
        try {
            // leadership lasts from a start's beginning to its undoing, so look between two attempts
            await().atMost(Duration.ofSeconds(10)).until(() -> attempts.get() >= 2 && !broken.isLeader());
            assertThat(undone.get()).as("each failed start is undone").isGreaterThanOrEqualTo(1);
            healthy.start();
            await().atMost(Duration.ofSeconds(10)).until(healthy::isLeader);
            assertThat(locks.isHeld(lock, healthy.holder())).isTrue();
        } finally {
            broken.stop();
            healthy.stop();
        }
    }

    @Test
    void aLeaderRetriesItsStartUntilItSucceeds() {
        String lock = "auctioneer-" + UUID.randomUUID();
        AtomicInteger attempts = new AtomicInteger();
        LeaderElection election = new LeaderElection(locks, lock, Duration.ofMillis(300), () -> {
            if (attempts.incrementAndGet() < 3) {
                throw new IllegalStateException("not yet");
            }
        }, () -> { });
        election.start();
        try {
            // isLeader is already true while a start runs (and fails), so wait for the start that succeeded
            await().atMost(Duration.ofSeconds(10)).until(() -> attempts.get() == 3 && election.isLeader());
            await().during(Duration.ofMillis(900)).atMost(Duration.ofSeconds(5))
                    .until(() -> election.isLeader() && attempts.get() == 3);
        } finally {
            election.stop();
        }
    }

    private static CellPresence.Heartbeat beat(String cell, int memoryMb) {
        return new CellPresence.Heartbeat(registration(cell, memoryMb), CellState.ACTIVE, null);
    }

    private static CellRegistration registration(String cell, int memoryMb) {
        return new CellRegistration(cell, "z1", "10.0.0.1", new Resources(memoryMb, 4096, 10), List.of("preloaded:host"),
                List.of("ssd"), List.of());
    }
}
