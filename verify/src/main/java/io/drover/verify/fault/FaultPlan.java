package io.drover.verify.fault;

import io.drover.verify.check.FaultKinds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Which faults a run injects and when, from its seed alone (pure, so a seed replays the same plan): a window of message
 * faults early on; the heavy faults (a rep killed, a cell drained, PostgreSQL restarted, the broker stopped, a leader
 * frozen, a container cut off the network) one after another in a seeded order with a few seconds between, each as
 * long as the cluster's {@link Lengths} say; a workload killed every 10-20 s. Nothing starts later than five seconds
 * before the workload ends; whatever still runs then is healed.
 */
public final class FaultPlan {

    /** One fault: what, on which rep (-1: none), when after the workload started, for how long at most. */
    public record Planned(String kind, int rep, Duration at, Duration length) {
    }

    /** A fault's length: {@code min} plus a seeded share of {@code spread} (none drawn when the spread is zero). */
    public record Length(Duration min, Duration spread) {

        long draw(Random random) {
            return min.toMillis() + (spread.isZero() ? 0 : random.nextInt((int) spread.toMillis()));
        }
    }

    /** How long each heavy fault lasts in a cluster. */
    public record Lengths(Map<String, Length> byKind) {

        /**
         * The local cluster's: a rep away for presence TTL + 4-8 s (its instances are replaced meanwhile), PostgreSQL
         * 5-10 s, the broker 30-40 s, a drain until its cell left (45 s at most), a leader frozen 8-12 s (its lock's
         * TTL is 3 s).
         */
        public static Lengths local(Duration presenceTtl) {
            return new Lengths(Map.of(FaultKinds.REP_KILL, between(presenceTtl.plusSeconds(4), 4),
                    FaultKinds.DATABASE, between(Duration.ofSeconds(5), 5),
                    FaultKinds.KAFKA, between(Duration.ofSeconds(30), 10),
                    FaultKinds.DRAIN, between(Duration.ofSeconds(45), 0),
                    FaultKinds.LEADER_FREEZE, between(Duration.ofSeconds(8), 4)));
        }

        /**
         * The compose cluster's: as the local one's, but the broker stopped 30-60 s, a leader paused its lock's TTL +
         * 3-7 s, and a container cut off the network 20-60 s.
         */
        public static Lengths compose(Duration presenceTtl, Duration leaderTtl) {
            return new Lengths(Map.of(FaultKinds.REP_KILL, between(presenceTtl.plusSeconds(4), 4),
                    FaultKinds.DATABASE, between(Duration.ofSeconds(5), 5),
                    FaultKinds.KAFKA, between(Duration.ofSeconds(30), 30),
                    FaultKinds.DRAIN, between(Duration.ofSeconds(45), 0),
                    FaultKinds.LEADER_FREEZE, between(leaderTtl.plusSeconds(3), 4),
                    FaultKinds.PARTITION, between(Duration.ofSeconds(20), 40)));
        }

        private static Length between(Duration min, long spreadSeconds) {
            return new Length(min, Duration.ofSeconds(spreadSeconds));
        }
    }

    private FaultPlan() {
    }

    public static List<Planned> of(long seed, Duration workload, Set<String> kinds, int reps, Lengths lengths) {
        Random random = new Random(seed ^ 0xFA017L);
        List<Planned> plan = new ArrayList<>();
        long total = workload.toMillis();
        long last = total - 5_000;
        if (kinds.contains(FaultKinds.MESSAGES)) {
            plan.add(new Planned(FaultKinds.MESSAGES, -1, Duration.ofMillis(total / 10),
                    Duration.ofMillis(Math.min(30_000, total * 3 / 10))));
        }
        List<String> heavy = new ArrayList<>(List.of(FaultKinds.REP_KILL, FaultKinds.DATABASE, FaultKinds.KAFKA,
                FaultKinds.DRAIN, FaultKinds.LEADER_FREEZE, FaultKinds.PARTITION));
        heavy.retainAll(kinds);
        heavy.retainAll(lengths.byKind().keySet());
        long at = 8_000;
        while (!heavy.isEmpty() && at < last) {
            Collections.shuffle(heavy, random);
            for (String kind : heavy) {
                long length = lengths.byKind().get(kind).draw(random);
                if (at >= last) {
                    break;
                }
                plan.add(new Planned(kind, reps > 0 ? random.nextInt(reps) : -1, Duration.ofMillis(at),
                        Duration.ofMillis(Math.min(length, Math.max(1_000, total - at)))));
                at += (kind.equals(FaultKinds.DRAIN) ? 25_000 : length) + 3_000 + random.nextInt(3_000);
            }
        }
        if (kinds.contains(FaultKinds.WORKLOAD_KILL)) {
            for (long k = 10_000 + random.nextInt(10_000); k < last; k += 10_000 + random.nextInt(10_000)) {
                plan.add(new Planned(FaultKinds.WORKLOAD_KILL, -1, Duration.ofMillis(k), Duration.ZERO));
            }
        }
        plan.sort(Comparator.comparing(Planned::at));
        return plan;
    }
}
