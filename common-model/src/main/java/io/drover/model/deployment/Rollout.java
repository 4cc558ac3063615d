package io.drover.model.deployment;

import io.drover.model.lrp.ActualLrpState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The deployment step function of SPEC 14, pure: given the strategy, the desired instance count, the target version,
 * the slots and the time, what to start, what to retire and whether the deployment is done, failed or waiting.
 *
 * <p>A slot is replaced one way or the other: <em>surge</em> (its RUNNING instance keeps serving from a twin while the
 * new one starts; at most {@code max_surge} twins at once) or <em>replace</em> (in place: its instance stops first, at
 * most {@code max_unavailable} slots without a serving instance). A slot that serves nothing anyway (UNCLAIMED,
 * CLAIMED, CRASHED) or whose old instance a twin serves already is replaced at no cost. A twin goes once its slot's new
 * instance has been RUNNING for {@code min_healthy_time}. So no step ever leaves fewer than
 * {@code instances - max_unavailable} slots serving that served before it.
 */
public final class Rollout {

    private Rollout() {
    }

    /** The inputs of one step: the deployment as stored, the desired instances and the slots (any order). */
    public record Input(DeploymentState state, int target, Strategy strategy, boolean promoted, Instant progressAt,
            int instances, List<Slot> slots, Instant now) {
    }

    public static Step step(Input in) {
        Map<Integer, Slot> byIndex = new HashMap<>();
        in.slots().stream().filter(s -> s.index() < in.instances()).forEach(s -> byIndex.put(s.index(), s));
        Duration minHealthy = in.strategy().minHealthyTime();
        List<Integer> removeTwins = new ArrayList<>();
        List<Integer> create = new ArrayList<>();
        List<Slot> slots = new ArrayList<>();
        Instant progressAt = in.progressAt();
        int updated = 0;
        int unhealthy = 0;
        int serving = 0;
        int twins = 0;
        int atTarget = 0;
        for (int i = 0; i < in.instances(); i++) {
            Slot s = byIndex.getOrDefault(i, Slot.missing(i, false));
            slots.add(s);
            boolean isUpdated = s.updated(in.target(), minHealthy, in.now());
            if (isUpdated) {
                updated++;
                progressAt = max(progressAt, s.since().plus(minHealthy));
            }
            if (isUpdated && s.twin()) {
                removeTwins.add(i);
            } else if (s.twin()) {
                twins++;
            }
            if (!s.hasRecord()) {
                create.add(i);
            }
            if (s.serving()) {
                serving++;
            }
            if (s.version() == in.target() || !s.hasRecord()) {
                atTarget++;
                if (s.crashCount() > 0 || s.state() == ActualLrpState.CRASHED) {
                    unhealthy++;
                }
            }
        }
        Step.Counts counts = new Step.Counts(in.instances(), updated, serving, unhealthy);
        if (updated == in.instances() && twins == 0) {
            return new Step(List.of(), List.of(), removeTwins, create, Step.Verdict.SUCCEEDED, "all instances updated",
                    progressAt, counts);
        }
        if (in.state() != DeploymentState.RUNNING) {
            return hold(removeTwins, create, progressAt, counts);
        }
        if (in.now().isAfter(progressAt.plus(in.strategy().progressDeadline()))) {
            return new Step(List.of(), List.of(), removeTwins, create, Step.Verdict.FAILED, "no instance of version "
                    + in.target() + " became healthy within the progress deadline of "
                    + in.strategy().progressDeadline().toSeconds() + " s (" + unhealthy + " crashed)", progressAt,
                    counts);
        }
        int canaryLeft = in.strategy().canary() > 0 && !in.promoted()
                ? in.strategy().canary() - atTarget : Integer.MAX_VALUE;
        if (canaryLeft <= 0 && updated >= Math.min(in.strategy().canary(), in.instances()) && twins == 0) {
            return new Step(List.of(), List.of(), removeTwins, create, Step.Verdict.WAITING_FOR_PROMOTION,
                    in.strategy().canary() + " canary instances updated", progressAt, counts);
        }
        return choose(in, slots, canaryLeft, twins, serving, removeTwins, create, progressAt, counts);
    }

    /** Picks the old slots to replace, lowest index first: free ones, then surges, then in-place replacements. */
    private static Step choose(Input in, List<Slot> slots, int canaryLeft, int twins, int serving,
            List<Integer> removeTwins, List<Integer> create, Instant progressAt, Step.Counts counts) {
        int surgeLeft = in.strategy().surge(in.instances()) - twins;
        int unavailableLeft = in.strategy().unavailable(in.instances()) - (in.instances() - serving);
        List<Integer> surge = new ArrayList<>();
        List<Integer> replace = new ArrayList<>();
        List<Slot> old = slots.stream().filter(s -> s.hasRecord() && s.version() != in.target())
                .sorted(Comparator.comparing((Slot s) -> s.state() == ActualLrpState.RUNNING && !s.twin())
                        .thenComparingInt(Slot::index))
                .toList();
        for (Slot s : old) {
            if (canaryLeft <= 0) {
                break;
            }
            if (s.state() != ActualLrpState.RUNNING || s.twin()) {
                replace.add(s.index()); // serves nothing, or its twin serves: replacing it costs no capacity
            } else if (surgeLeft > 0) {
                surge.add(s.index());
                surgeLeft--;
            } else if (unavailableLeft > 0) {
                replace.add(s.index());
                unavailableLeft--;
            } else {
                break;
            }
            canaryLeft--;
        }
        return new Step(surge, replace, removeTwins, create, Step.Verdict.CONTINUE, null, progressAt, counts);
    }

    private static Step hold(List<Integer> removeTwins, List<Integer> create, Instant progressAt, Step.Counts counts) {
        return new Step(List.of(), List.of(), removeTwins, create, Step.Verdict.CONTINUE, null, progressAt, counts);
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
