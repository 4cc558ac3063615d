package io.drover.model.deployment;

import io.drover.model.lrp.ActualLrpState;
import io.drover.model.time.Instants;
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
        Tally t = Tally.of(in);
        if (t.updated == in.instances() && t.twins == 0) {
            return t.step(List.of(), List.of(), Step.Verdict.SUCCEEDED, "all instances updated");
        }
        if (in.state() != DeploymentState.RUNNING) {
            return t.step(List.of(), List.of(), Step.Verdict.CONTINUE, null);
        }
        if (in.now().isAfter(t.progressAt.plus(in.strategy().progressDeadline()))) {
            return t.step(List.of(), List.of(), Step.Verdict.FAILED, "no instance of version " + in.target()
                    + " became healthy within the progress deadline of "
                    + in.strategy().progressDeadline().toSeconds() + " s (" + t.unhealthy + " crashed)");
        }
        int canaryLeft = in.strategy().canary() > 0 && !in.promoted()
                ? in.strategy().canary() - t.atTarget : Integer.MAX_VALUE;
        if (canaryLeft <= 0 && t.updated >= Math.min(in.strategy().canary(), in.instances()) && t.twins == 0) {
            return t.step(List.of(), List.of(), Step.Verdict.WAITING_FOR_PROMOTION,
                    in.strategy().canary() + " canary instances updated");
        }
        return choose(in, t, canaryLeft);
    }

    /** Picks the old slots to replace, lowest index first: free ones, then surges, then in-place replacements. */
    private static Step choose(Input in, Tally t, int canaryLeft) {
        int surgeLeft = in.strategy().surge(in.instances()) - t.twins;
        int unavailableLeft = in.strategy().unavailable(in.instances()) - (in.instances() - t.serving);
        List<Integer> surge = new ArrayList<>();
        List<Integer> replace = new ArrayList<>();
        List<Slot> old = t.slots.stream().filter(s -> s.hasRecord() && s.version() != in.target())
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
        return t.step(surge, replace, Step.Verdict.CONTINUE, null);
    }

    /** The slots below {@code instances} counted once: what every decision of a step reads. */
    private static final class Tally {

        final List<Slot> slots = new ArrayList<>();
        final List<Integer> removeTwins = new ArrayList<>();
        final List<Integer> create = new ArrayList<>();
        final int instances;
        Instant progressAt;
        int updated;
        int unhealthy;
        int serving;
        int twins;
        int atTarget;

        private Tally(Instant progressAt, int instances) {
            this.progressAt = progressAt;
            this.instances = instances;
        }

        static Tally of(Input in) {
            Map<Integer, Slot> byIndex = new HashMap<>();
            in.slots().stream().filter(s -> s.index() < in.instances()).forEach(s -> byIndex.put(s.index(), s));
            Tally t = new Tally(in.progressAt(), in.instances());
            for (int i = 0; i < in.instances(); i++) {
                t.count(byIndex.getOrDefault(i, Slot.missing(i, false)), in);
            }
            return t;
        }

        private void count(Slot s, Input in) {
            Duration minHealthy = in.strategy().minHealthyTime();
            slots.add(s);
            boolean isUpdated = s.updated(in.target(), minHealthy, in.now());
            if (isUpdated) {
                updated++;
                progressAt = Instants.later(progressAt, s.since().plus(minHealthy));
            }
            if (isUpdated && s.twin()) {
                removeTwins.add(s.index());
            } else if (s.twin()) {
                twins++;
            }
            if (!s.hasRecord()) {
                create.add(s.index());
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

        Step step(List<Integer> surge, List<Integer> replace, Step.Verdict verdict, String reason) {
            return new Step(surge, replace, removeTwins, create, verdict, reason, progressAt,
                    new Step.Counts(instances, updated, serving, unhealthy));
        }
    }
}
