package io.drover.auctioneer.allocation;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
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
 * <p>Reads and reconciles happen on the round thread, between the round's reads and its decision, never inside a
 * transaction; {@link #drop} may come from the election thread at any time. A reconcile that a drop overtook serves
 * its round but is not kept.
 */
public class Allocations {

    /** How many read durations apart two interval reads are at least. */
    static final int READS_APART = 10;

    private final Supplier<AllocationView> database;
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
        if (interval.isNegative()) {
            throw new IllegalArgumentException("reconcile interval must not be negative: " + interval);
        }
        this.database = database;
        this.clock = clock;
        this.interval = interval;
        this.meters = meters;
    }

    /** The view a round decides on: loaded if this leadership has none yet, reconciled if older than the interval. */
    public Current forRound() {
        Held current = held;
        if (current == null || current.term != term.get()) {
            return new Current(reconcile(Source.LOADED), Source.LOADED);
        }
        if (!clock.instant().isBefore(current.reconciledAt.plus(current.due))) {
            return new Current(reconcile(Source.INTERVAL), Source.INTERVAL);
        }
        return new Current(current.view, Source.INCREMENTAL);
    }

    /** Replaces the view with the database's aggregate and returns it. */
    public AllocationView reconcile(Source why) {
        long readIn = term.get();
        long started = System.nanoTime();
        Instant readFrom = clock.instant();
        AllocationView view = database.get();
        Instant readTo = clock.instant();
        Timer.builder("drover.auction.allocation.reconcile").tag("trigger", why.name().toLowerCase(Locale.ROOT))
                .description("Full reads of the allocation aggregate by the auction leader").register(meters)
                .record(Duration.ofNanos(System.nanoTime() - started));
        if (term.get() == readIn) {
            // The interval counts from the end of the read: rounds get `interval` of work between two reads, however
            // long a read takes. Only this thread places, so what the view misses meanwhile frees capacity.
            Duration readsApart = Duration.between(readFrom, readTo).multipliedBy(READS_APART);
            Duration due = interval.isZero() || readsApart.compareTo(interval) <= 0 ? interval : readsApart;
            held = new Held(readIn, view, readTo, due);
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

    /** A view, when its read ended, and how long after that the next interval read is due. */
    private record Held(long term, AllocationView view, Instant reconciledAt, Duration due) {
    }
}
