package io.drover.auctioneer.allocation;

import static io.drover.auctioneer.allocation.AllocationViewTest.read;
import static io.drover.auctioneer.allocation.AllocationViewTest.work;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.auctioneer.allocation.Allocations.Current;
import io.drover.auctioneer.allocation.Allocations.Source;
import io.drover.model.cell.Resources;
import io.drover.model.read.CellAllocation;
import io.drover.test.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** When the leader's view is read from the database, and what a read replaces. */
class AllocationsTest {

    private final MutableClock clock = MutableClock.startingNow();
    private final AtomicReference<Map<String, CellAllocation>> database = new AtomicReference<>(Map.of());
    private final AtomicInteger reads = new AtomicInteger();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final Allocations allocations = allocations(Duration.ofSeconds(3));

    @Test
    void theFirstRoundOfALeadershipLoadsTheViewAndTheNextRoundsGrowIt() {
        database.set(Map.of("a", read(new Resources(100, 100, 1), 0, Map.of("web", 1))));

        Current first = allocations.forRound();
        first.view().placed("a", work("web", 50));
        Current second = allocations.forRound();

        assertThat(first.source()).isEqualTo(Source.LOADED);
        assertThat(second.source()).isEqualTo(Source.INCREMENTAL);
        assertThat(second.view()).isSameAs(first.view());
        assertThat(second.view().allocated("a")).isEqualTo(new Resources(150, 200, 2));
        assertThat(reads).hasValue(1);
    }

    @Test
    void aRoundAfterTheIntervalReconcilesAndTheDatabaseReplacesWhatThePlacementsAdded() {
        allocations.forRound().view().placed("a", work("web", 50));
        database.set(Map.of("b", read(new Resources(64, 64, 2), 2, Map.of("api", 2))));

        clock.advance(Duration.ofMillis(2_999));
        assertThat(allocations.forRound().source()).isEqualTo(Source.INCREMENTAL);
        clock.advance(Duration.ofMillis(1));
        Current reconciled = allocations.forRound();

        assertThat(reconciled.source()).isEqualTo(Source.INTERVAL);
        assertThat(reconciled.view().allocated("a")).as("a placement the database no longer has").isEqualTo(
                Resources.NONE);
        assertThat(reconciled.view().allocated("b")).isEqualTo(new Resources(64, 64, 2));
        assertThat(reconciled.view().starting("b")).isEqualTo(2);
        assertThat(allocations.forRound().source()).isEqualTo(Source.INCREMENTAL);
        assertThat(meters.get("drover.auction.allocation.reconcile").tag("trigger", "interval").timer().count())
                .isEqualTo(1);
    }

    @Test
    void aRoundOfTasksAfterTheIntervalReadsTheTotalsAloneAndKeepsTheCountsWhichAgeFromTheirOwnRead() {
        AtomicInteger totalReads = new AtomicInteger();
        Allocations split = new Allocations(() -> {
            reads.incrementAndGet();
            return AllocationView.of(database.get());
        }, () -> {
            totalReads.incrementAndGet();
            return Map.of("a", read(new Resources(300, 300, 3), 1, Map.of()));
        }, clock, Duration.ofSeconds(3), meters);
        database.set(Map.of("a", read(new Resources(100, 100, 1), 0, Map.of("web", 1))));
        assertThat(split.forRound(false).source()).as("a leadership's first read is whole").isEqualTo(Source.LOADED);
        clock.advance(Duration.ofSeconds(1));
        split.forRound(true).view().placed("a", work("api", 50));

        clock.advance(Duration.ofSeconds(2));
        Current tasks = split.forRound(false);
        clock.advance(Duration.ofSeconds(1));
        Current instances = split.forRound(true);

        assertThat(tasks.source()).isEqualTo(Source.INTERVAL);
        assertThat(tasks.view().allocated("a")).as("the totals read").isEqualTo(new Resources(300, 300, 3));
        assertThat(tasks.view().starting("a")).isEqualTo(1);
        assertThat(List.of(tasks.view().instances("a", "web"), tasks.view().instances("a", "api")))
                .as("the counts kept, with the placement since their read").containsExactly(1, 1);
        assertThat(instances.source()).as("counts read 4 s ago, totals 1 s ago").isEqualTo(Source.INTERVAL);
        assertThat(List.of(reads.get(), totalReads.get())).containsExactly(2, 1);
        assertThat(instances.view().instances("a", "api")).as("read whole again").isZero();
        assertThat(split.forRound(false).source()).isEqualTo(Source.INCREMENTAL);
        assertThat(meters.get("drover.auction.allocation.reconcile").tag("read", "totals").timer().count())
                .isEqualTo(1);
    }

    @Test
    void aReconcileForAShortageRestartsTheInterval() {
        allocations.forRound();
        clock.advance(Duration.ofSeconds(2));

        allocations.reconcile(Source.SHORTAGE);
        clock.advance(Duration.ofSeconds(2));

        assertThat(allocations.forRound().source()).isEqualTo(Source.INCREMENTAL);
        assertThat(reads).hasValue(2);
    }

    @Test
    void aSlowReadPutsTheNextIntervalReadTenReadsLater() {
        Allocations slow = readingFor(Duration.ofSeconds(2), Duration.ofSeconds(3)); // a read over a million instances
        slow.forRound();

        clock.advance(Duration.ofMillis(19_999));
        assertThat(slow.forRound().source()).as("3 s after, but not yet 10 reads' time").isEqualTo(Source.INCREMENTAL);
        clock.advance(Duration.ofMillis(1));
        assertThat(slow.forRound().source()).isEqualTo(Source.INTERVAL);
        assertThat(reads).hasValue(2);
    }

    @Test
    void aFastReadKeepsTheConfiguredInterval() {
        Allocations fast = readingFor(Duration.ofMillis(200), Duration.ofSeconds(3));
        fast.forRound();

        clock.advance(Duration.ofSeconds(3));

        assertThat(fast.forRound().source()).isEqualTo(Source.INTERVAL);
    }

    @Test
    void losingLeadershipDropsTheViewAndTheNextLeadershipLoadsItAgain() {
        allocations.forRound().view().placed("a", work("web", 50));

        allocations.drop();
        Current next = allocations.forRound();

        assertThat(next.source()).isEqualTo(Source.LOADED);
        assertThat(next.view().allocated("a")).isEqualTo(Resources.NONE);
    }

    @Test
    void aReadThatADropOvertookServesItsRoundButIsNotKept() {
        AtomicReference<Allocations> self = new AtomicReference<>();
        AtomicBoolean dropWhileReading = new AtomicBoolean(true);
        Allocations racing = new Allocations(() -> {
            if (dropWhileReading.getAndSet(false)) {
                self.get().drop(); // leadership changes hands while the first read is under way
            }
            return AllocationView.empty();
        }, clock, Duration.ofSeconds(3), meters);
        self.set(racing);

        assertThat(racing.forRound().source()).isEqualTo(Source.LOADED);
        assertThat(racing.forRound().source()).as("the overtaken read was not kept").isEqualTo(Source.LOADED);
        assertThat(racing.forRound().source()).isEqualTo(Source.INCREMENTAL);
    }

    @Test
    void aZeroIntervalReadsTheAggregateOnEveryRoundHoweverLongAReadTakes() {
        Allocations everyRound = readingFor(Duration.ofSeconds(1), Duration.ZERO);

        everyRound.forRound();

        assertThat(everyRound.forRound().source()).isEqualTo(Source.INTERVAL);
        assertThat(everyRound.forRound().source()).isEqualTo(Source.INTERVAL);
    }

    /** Allocations whose every read of the (empty) aggregate takes {@code read} on the clock. */
    private Allocations readingFor(Duration read, Duration interval) {
        return new Allocations(() -> {
            reads.incrementAndGet();
            clock.advance(read);
            return AllocationView.empty();
        }, clock, interval, meters);
    }

    private Allocations allocations(Duration interval) {
        return new Allocations(() -> {
            reads.incrementAndGet();
            return AllocationView.of(database.get());
        }, clock, interval, meters);
    }
}
