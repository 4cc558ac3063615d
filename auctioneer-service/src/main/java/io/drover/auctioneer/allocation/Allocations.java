package io.drover.auctioneer.allocation;

import io.drover.model.read.CellAllocation;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The leader's {@link AllocationView}. Loaded from the database by the first round of a leadership, grown by each
 * round's confirmed placements, and replaced by a fresh read of the aggregate (a reconcile) by the first round after
 * the interval, or by a round that would otherwise fail instances for want of capacity. Losing or regaining leadership
 * drops it, so every leadership starts from the database.
 *
 * <p>The interval grows with the cost of a read: the next read is due {@link #READS_APART} times the last read's
 * duration after it, if that is longer than the configured interval, so that reading the aggregate takes at most about
 * a tenth of the round thread's time however many instances the cluster holds (a read took 3-10 s over a million).
 *
 * <p>A round that spreads nothing (tasks only) needs each cell's totals fresh, not its counts per LRP: its reconcile
 * reads the totals alone (one row per cell instead of one per cell and LRP) and keeps the counts, which then age
 * from their own read; the first round that spreads instances once its counts are due reads everything.
 *
 * <p>Reads and reconciles happen on the round thread, between the round's reads and its decision, never inside a
 * transaction; {@link #drop} may come from the election thread at any time. A reconcile that a drop overtook serves
 * its round but is not kept.
 */
public class Allocations {

    /** How many read durations apart two interval reads are at least. */
    static final int READS_APART = 10;

    private final Supplier<AllocationView> database;
    private final Supplier<Map<String, CellAllocation>> totals;
    private final Clock clock;
    private final Duration interval;
    private final MeterRegistry meters;
    private final AtomicLong term = new AtomicLong();
    private volatile Held held;

    /**
     * {@code interval} zero reconciles on every round (the aggregate per round, as before the view), however long a
     * read takes.
     */
    public Allocations(Supplier<AllocationView> database, Clock clock, Duration interval, MeterRegistry meters) {
        this(database, null, clock, interval, meters);
    }

    /** {@code totals}: each cell's totals without its counts, or null to read everything for every round. */
    public Allocations(Supplier<AllocationView> database, Supplier<Map<String, CellAllocation>> totals, Clock clock,
            Duration interval, MeterRegistry meters) {
        if (interval.isNegative()) {
            throw new IllegalArgumentException("reconcile interval must not be negative: " + interval);
        }
        this.database = database;
        this.totals = totals;
        this.clock = clock;
        this.interval = interval;
        this.meters = meters;
    }

    /** The view a round that spreads instances decides on: see {@link #forRound(boolean)}. */
    public Current forRound() {
        return forRound(true);
    }

    /**
     * The view a round decides on: loaded if this leadership has none yet, reconciled if its read is due, or, for a
     * round that {@code spreads} instances, if the read of its counts per LRP is.
     */
    public Current forRound(boolean spreads) {
        Held current = held;
        if (current == null || current.term != term.get()) {
            return new Current(reconcile(Source.LOADED, true), Source.LOADED);
        }
        Instant now = clock.instant();
        if (!now.isBefore(current.read.due()) || spreads && !now.isBefore(current.counted.due())) {
            return new Current(reconcile(Source.INTERVAL, spreads), Source.INTERVAL);
        }
        return new Current(current.view, Source.INCREMENTAL);
    }

    /** Replaces the view with the database's aggregate and returns it. */
    public AllocationView reconcile(Source why) {
        return reconcile(why, true);
    }

    /**
     * Replaces the view with the database's aggregate and returns it; for a round that {@code spreads} nothing, with
     * the cells' totals only, the counts per LRP kept (a first read of a leadership reads everything).
     */
    public AllocationView reconcile(Source why, boolean spreads) {
        long readIn = term.get();
        Held before = held;
        boolean all = spreads || totals == null || before == null || before.term != readIn;
        long started = System.nanoTime();
        Instant readFrom = clock.instant();
        AllocationView view = all ? database.get() : before.view.withTotals(totals.get());
        Instant readTo = clock.instant();
        Timer.builder("drover.auction.allocation.reconcile").tag("trigger", why.name().toLowerCase(Locale.ROOT))
                .tag("read", all ? "all" : "totals")
                .description("Reads of the allocation aggregate by the auction leader").register(meters)
                .record(Duration.ofNanos(System.nanoTime() - started));
        if (term.get() == readIn) {
            // The interval counts from the end of the read: rounds get `interval` of work between two reads, however
            // long a read takes. Only this thread places, so what the view misses meanwhile frees capacity.
            Duration readsApart = Duration.between(readFrom, readTo).multipliedBy(READS_APART);
            Read read = new Read(readTo, interval.isZero() || readsApart.compareTo(interval) <= 0 ? interval
                    : readsApart);
            held = new Held(readIn, view, read, all ? read : before.counted);
        }
        return view;
    }

    /** Leadership changed hands: forget the view; the next round loads it again. */
    public void drop() {
        term.incrementAndGet();
        held = null;
    }

    /** Where the view of a round came from. */
    public enum Source {
        /** Grown in memory since the last reconcile. */
        INCREMENTAL,
        /** Read by the first round of a leadership. */
        LOADED,
        /** Read because the last read was older than the interval. */
        INTERVAL,
        /** Read because a round would have failed instances for want of capacity. */
        SHORTAGE;

        /** Whether the view was read from the database in this round (reading it again would tell nothing new). */
        public boolean isFresh() {
            return this != INCREMENTAL;
        }
    }

    /** The view of one round and where it came from. */
    public record Current(AllocationView view, Source source) {
    }

    /** A read that ended at {@code at}, and how long after it the next one is due. */
    private record Read(Instant at, Duration after) {

        Instant due() {
            return at.plus(after);
        }
    }

    /** The view of a leadership, its last read (of the totals or of everything) and the last read of its counts. */
    private record Held(long term, AllocationView view, Read read, Read counted) {
    }
}
