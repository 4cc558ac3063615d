package io.drover.verify.fault;

import io.drover.verify.check.FaultKinds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Which faults a run injects and when, from its seed alone (pure, so a seed replays the same plan): a window of message
 * faults early on; the heavy faults (a rep killed, a cell drained, PostgreSQL restarted, the broker stopped 30-40 s, a
 * leader frozen) one after another in a seeded order with a few seconds between; a workload killed every 10-20 s.
 * Nothing starts later than five seconds before the workload ends; whatever still runs then is healed.
 */
public final class FaultPlan {

    /** One fault: what, on which rep (-1: none), when after the workload started, for how long at most. */
    public record Planned(String kind, int rep, Duration at, Duration length) {
    }

    private FaultPlan() {
    }

    public static List<Planned> of(long seed, Duration workload, Set<String> kinds, int reps, Duration presenceTtl) {
        Random random = new Random(seed ^ 0xFA017L);
        List<Planned> plan = new ArrayList<>();
        long total = workload.toMillis();
        long last = total - 5_000;
        if (kinds.contains(FaultKinds.MESSAGES)) {
            plan.add(new Planned(FaultKinds.MESSAGES, -1, Duration.ofMillis(total / 10),
                    Duration.ofMillis(Math.min(30_000, total * 3 / 10))));
        }
        List<String> heavy = new ArrayList<>(List.of(FaultKinds.REP_KILL, FaultKinds.DATABASE, FaultKinds.KAFKA,
                FaultKinds.DRAIN, FaultKinds.LEADER_FREEZE));
        heavy.retainAll(kinds);
        long at = 8_000;
        while (!heavy.isEmpty() && at < last) {
            Collections.shuffle(heavy, random);
            for (String kind : heavy) {
                long length = switch (kind) {
                    case FaultKinds.REP_KILL -> presenceTtl.toMillis() + 4_000 + random.nextInt(4_000);
                    case FaultKinds.DATABASE -> 5_000 + random.nextInt(5_000);
                    case FaultKinds.KAFKA -> 30_000 + random.nextInt(10_000);
                    case FaultKinds.DRAIN -> 45_000;
                    default -> 8_000 + random.nextInt(4_000);
                };
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
