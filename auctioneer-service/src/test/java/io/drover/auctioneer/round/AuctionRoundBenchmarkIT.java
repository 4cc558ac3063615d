package io.drover.auctioneer.round;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.auctioneer.allocation.Allocations;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.messaging.TopicReader;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.StartedInstance;
import io.drover.test.WithDroverInfrastructure;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;

/**
 * Issue 13, move 6: what a round of 1,000 instances costs over 1,000 cells carrying 100,000 RUNNING instances, with
 * the full allocation aggregate read on every round (as before the view) and with the leader's view (reconciled every
 * 3 s). The rounds run back to back on the context's own fenced round, as in a burst. Slow to set up, so opt-in:
 * {@code -Ddrover.benchmark=true}. Prints the figures.
 */
@SpringBootTest(properties = { "drover.auctioneer.group-id=auction-round-benchmark",
        "drover.auctioneer.reconcile-interval=3s" })
@WithDroverInfrastructure
@EnabledIfSystemProperty(named = "drover.benchmark", matches = "true")
@DirtiesContext
class AuctionRoundBenchmarkIT {

    private static final int CELLS = 1_000;
    private static final int RUNNING_LRPS = 1_000;
    private static final int RUNNING_INSTANCES = 100;
    private static final int ROUND_LRPS = 100;
    private static final int ROUND_INSTANCES = 10;
    private static final int WARM_UP_ROUNDS = 2;
    private static final int MEASURED_ROUNDS = 8;

    @Autowired
    AuctionRound round;
    @Autowired
    Allocations allocations;
    @Autowired
    AuctionSnapshots snapshots;
    @Autowired
    CellPresence presence;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    ActualLrpLifecycle actual;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    TopicReader auctionRoundsReader;
    @Autowired
    MeterRegistry meters;

    @Test
    void roundsOfAThousandOverAHundredThousandRunningInstances() {
        // This context stays the leader (its rounds are fenced by the lock) but the test drives the rounds.
        auctionRoundsReader.close();
        long setup = System.nanoTime();
        IntStream.range(0, CELLS).forEach(c -> presence.heartbeat(cell(c), Duration.ofHours(1)));
        runHundredThousand();
        int rounds = 2 * (WARM_UP_ROUNDS + MEASURED_ROUNDS);
        List<List<ActualLrpKey>> work = IntStream.range(0, rounds).mapToObj(this::desireRound).toList();
        System.out.printf("auction-round-benchmark setup_s=%d running=%d%n",
                Duration.ofNanos(System.nanoTime() - setup).toSeconds(), count("RUNNING"));

        Mode perRound = measure("aggregate-per-round", work.subList(0, rounds / 2), () -> {
            allocations.reconcile(Allocations.Source.INTERVAL);
            return null;
        });
        Mode withView = measure("view", work.subList(rounds / 2, rounds), () -> null);
        List<Long> aggregate = timesOf(10, () -> allocations.reconcile(Allocations.Source.INTERVAL));
        List<Long> cells = timesOf(10, () -> snapshots.schedulableCells(true));
        for (Mode mode : List.of(perRound, withView)) {
            System.out.printf("auction-round-benchmark summary mode=%s rounds=%d aggregate_reads=%d round_ms_median=%d "
                    + "round_ms_total=%d aggregate_ms_total=%d rest_ms_total=%d%n", mode.name(), mode.rounds().size(),
                    mode.reads(), median(mode.rounds()), sum(mode.rounds()), mode.readMs(),
                    sum(mode.rounds()) - mode.readMs());
        }
        System.out.printf("auction-round-benchmark summary aggregate_alone_ms_median=%d presence_live_ms_median=%d%n",
                median(aggregate), median(cells));
        assertThat(count("UNCLAIMED")).as("every instance of the measured rounds was placed").isEqualTo(
                jdbc.queryForObject("SELECT count(*) FROM actual_lrps WHERE placed_cell_id IS NOT NULL",
                        Integer.class));
    }

    /**
     * Runs the rounds back to back, each after {@code before}; returns the measured rounds' wall times and how many
     * reads of the aggregate they made and took (the explicit ones of {@code before} included).
     */
    private Mode measure(String mode, List<List<ActualLrpKey>> rounds, Supplier<Void> before) {
        List<Long> times = new ArrayList<>();
        long reads = 0;
        long readMs = 0;
        for (int r = 0; r < rounds.size(); r++) {
            long[] readsBefore = reads();
            long started = System.nanoTime();
            before.get();
            round.run(rounds.get(r));
            long ms = Duration.ofNanos(System.nanoTime() - started).toMillis();
            long roundReads = reads()[0] - readsBefore[0];
            long roundReadMs = reads()[1] - readsBefore[1];
            if (r >= WARM_UP_ROUNDS) {
                times.add(ms);
                reads += roundReads;
                readMs += roundReadMs;
            }
            System.out.printf("auction-round-benchmark mode=%s round=%d%s instances=%d round_ms=%d aggregate_reads=%d "
                    + "aggregate_ms=%d%n", mode, r, r < WARM_UP_ROUNDS ? " (warm-up)" : "", rounds.get(r).size(), ms,
                    roundReads, roundReadMs);
        }
        return new Mode(mode, times, reads, readMs);
    }

    /** Reads of the aggregate so far, whatever triggered them: how many, and their total ms. */
    private long[] reads() {
        long count = 0;
        double ms = 0;
        for (Timer timer : meters.find("drover.auction.allocation.reconcile").timers()) {
            count += timer.count();
            ms += timer.totalTime(TimeUnit.MILLISECONDS);
        }
        return new long[] { count, Math.round(ms) };
    }

    private record Mode(String name, List<Long> rounds, long reads, long readMs) {
    }

    private void runHundredThousand() {
        List<StartedInstance> started = new ArrayList<>();
        for (int l = 0; l < RUNNING_LRPS; l++) {
            String guid = "running-" + l;
            desired.desire(AuctionRoundIT.lrp(guid, RUNNING_INSTANCES, 64), Actor.service("benchmark"));
            for (int i = 0; i < RUNNING_INSTANCES; i++) {
                started.add(new StartedInstance(ActualLrpKey.of(guid, i), "it",
                        InstanceOwner.of(UUID.randomUUID().toString(), "bench-cell-" + ((l + i * 7) % CELLS)),
                        new NetInfo("10.0.0.1", List.of(new NetInfo.PortMapping(8080, 61000)))));
            }
            if (started.size() >= 2_000) {
                actual.start(started, Actor.service("benchmark"));
                started.clear();
            }
        }
        if (!started.isEmpty()) {
            actual.start(started, Actor.service("benchmark"));
        }
    }

    private List<ActualLrpKey> desireRound(int round) {
        List<ActualLrpKey> keys = new ArrayList<>();
        for (int l = 0; l < ROUND_LRPS; l++) {
            String guid = "round-" + round + "-" + l;
            desired.desire(AuctionRoundIT.lrp(guid, ROUND_INSTANCES, 64), Actor.service("benchmark"));
            IntStream.range(0, ROUND_INSTANCES).forEach(i -> keys.add(ActualLrpKey.of(guid, i)));
        }
        return keys;
    }

    private int count(String state) {
        return jdbc.queryForObject("SELECT count(*) FROM actual_lrps WHERE state = ?", Integer.class, state);
    }

    private static List<Long> timesOf(int runs, Supplier<?> work) {
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            long started = System.nanoTime();
            work.get();
            times.add(Duration.ofNanos(System.nanoTime() - started).toMillis());
        }
        return times;
    }

    private static long median(List<Long> values) {
        return values.stream().sorted().toList().get(values.size() / 2);
    }

    private static long sum(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).sum();
    }

    private static CellRegistration cell(int c) {
        return new CellRegistration("bench-cell-" + c, "z" + (c % 3), "10.0.0.1:1800",
                new Resources(65_536, 200_000, 256), List.of("preloaded:host"), List.of(), List.of());
    }
}
