package io.drover.converger.autoscale;

import io.drover.model.autoscale.Recommendation;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.AutoscalingPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * SPEC 17 as one pure function: what size an autoscaled LRP should have now. The rules, in the order they apply (each
 * Kubernetes' HorizontalPodAutoscaler's, which operators know):
 *
 * <ol>
 *   <li><b>Who counts.</b> A RUNNING instance past its start ({@code warmup} after it became RUNNING) with figures is
 *       measured; one without figures is missing; an instance still starting (UNCLAIMED, CLAIMED, RUNNING within its
 *       warm-up) is unready; a CRASHED one is ignored.</li>
 *   <li><b>Proportional rule</b>, per target: {@code ceil(counted × mean / target)}, unless the ratio {@code mean /
 *       target} is within 10 % of 1 (then the size stays).</li>
 *   <li><b>Missing data is conservative.</b> Missing instances count as at their target on a way down and as idle on a
 *       way up; on a way up, unready instances count as idle. When that reverses the direction or lands within
 *       tolerance, the size stays. A target with no figures at all forbids a scale-down.</li>
 *   <li><b>Several targets</b>: the largest proposal wins.</li>
 *   <li><b>Stabilisation windows.</b> The proposals of the last {@code scale_up_delay} seconds must all be above the
 *       size for it to grow (to the least of them), those of the last {@code scale_down_delay} all below it for it to
 *       shrink (to the greatest): no decision flaps inside a window. When no proposal is left to go by (a new policy,
 *       after a pause or a time without figures), the current size counts as proposed now: a new policy first holds
 *       the size for its delays.</li>
 *   <li><b>At most doubling per step</b>, and always within [min_instances, max_instances].</li>
 *   <li><b>A deployment pauses it.</b> While the LRP has an active deployment the size stays and no proposal is
 *       recorded: the deployment replaces instances (new ones start idle, old ones are leaving), and a count the
 *       deployer works towards must not move under it.</li>
 * </ol>
 */
public final class Scaling {

    /** The HPA's tolerance: a ratio within 10 % of the target changes nothing. */
    static final double TOLERANCE = 0.1;

    private Scaling() {
    }

    /** One instance slot as the autoscaler sees it; a figure is null when it has none. */
    public record Instance(ActualLrpState state, Instant since, Double cpuPercent, Double memoryPercent) {
    }

    /**
     * What one decision reads.
     *
     * @param current the LRP's {@code instances} now
     * @param recommendations the proposals kept from earlier ticks, oldest first
     * @param deploying whether a deployment of the LRP is active
     * @param warmup how long an instance must have been RUNNING before its figures count
     */
    public record Input(AutoscalingPolicy policy, int current, List<Instance> instances,
            List<Recommendation> recommendations, boolean deploying, Instant now, Duration warmup) {
    }

    /**
     * What it decided.
     *
     * @param desired the size the LRP should have; {@code current} when nothing changes
     * @param cpuMean the mean CPU of the measured instances (null: none, or no CPU target)
     * @param memoryMean the same for memory
     * @param counted the instances measured
     * @param recommendations the proposals to keep, this tick's included, the older ones the windows no longer need
     *     dropped
     * @param condition why the size holds or moves, for people
     * @param figures the figures behind this tick's proposal ("cpu 95.0% of 60% over 2 instances"), for the audit row
     */
    public record Decision(int desired, Double cpuMean, Double memoryMean, int counted,
            List<Recommendation> recommendations, String condition, String figures) {

        public boolean scales(int current) {
            return desired != current;
        }
    }

    /** The size an autoscaled LRP should have now. */
    public static Decision decide(Input in) {
        AutoscalingPolicy policy = in.policy();
        Proposal cpu = policy.targetCpuPercent() == null ? null
                : Proposal.of("cpu", policy.targetCpuPercent(), in, Instance::cpuPercent);
        Proposal memory = policy.targetMemoryPercent() == null ? null
                : Proposal.of("memory", policy.targetMemoryPercent(), in, Instance::memoryPercent);
        Double cpuMean = cpu == null ? null : cpu.mean;
        Double memoryMean = memory == null ? null : memory.mean;
        int counted = Math.max(cpu == null ? 0 : cpu.measured, memory == null ? 0 : memory.measured);
        String figures = describe(cpu, memory);
        List<Recommendation> kept = kept(in);
        if (in.deploying()) {
            return new Decision(in.current(), cpuMean, memoryMean, counted, kept,
                    "paused: a deployment is in progress", figures);
        }
        boolean anyFigures = cpu != null && cpu.instances != null || memory != null && memory.instances != null;
        if (!anyFigures) {
            return new Decision(in.current(), cpuMean, memoryMean, counted, kept,
                    "no figures: no RUNNING instance past its start has been measured", figures);
        }
        int proposal = Math.max(cpu == null || cpu.instances == null ? 0 : cpu.instances,
                memory == null || memory.instances == null ? 0 : memory.instances);
        boolean blind = cpu != null && cpu.instances == null || memory != null && memory.instances == null;
        if (blind) {
            proposal = Math.max(proposal, in.current()); // a target without figures: never down
        }
        List<Recommendation> recommendations = new ArrayList<>(kept);
        if (kept.isEmpty()) {
            recommendations.add(new Recommendation(in.now(), in.current())); // nothing to go by: the size as it is
        }
        recommendations.add(new Recommendation(in.now(), proposal));
        return stabilised(in, proposal, recommendations, cpuMean, memoryMean, counted, figures);
    }

    private static Decision stabilised(Input in, int proposal, List<Recommendation> recommendations, Double cpuMean,
            Double memoryMean, int counted, String figures) {
        AutoscalingPolicy policy = in.policy();
        Instant upCutoff = in.now().minusSeconds(policy.scaleUpDelay());
        Instant downCutoff = in.now().minusSeconds(policy.scaleDownDelay());
        int up = proposal;
        int down = proposal;
        for (Recommendation r : recommendations) {
            if (r.at().isAfter(upCutoff)) {
                up = Math.min(up, r.instances());
            }
            if (r.at().isAfter(downCutoff)) {
                down = Math.max(down, r.instances());
            }
        }
        int current = in.current();
        int stable = Math.min(Math.max(current, up), down);
        int limited = Math.min(stable, Math.max(2 * current, 1));
        int desired = policy.clamp(limited);
        return new Decision(desired, cpuMean, memoryMean, counted, List.copyOf(recommendations),
                condition(current, proposal, stable, limited, desired, policy), figures);
    }

    private static String condition(int current, int proposal, int stable, int limited, int desired,
            AutoscalingPolicy policy) {
        if (desired != limited) {
            return (desired > limited ? "held at min_instances " : "held at max_instances ") + desired
                    + " (" + proposal + " proposed)";
        }
        if (limited != stable) {
            return "scaling up, at most doubling per step (" + proposal + " proposed)";
        }
        if (stable == current && proposal > current) {
            return "waiting for the scale-up delay (" + policy.scaleUpDelay() + " s) to hold " + proposal;
        }
        if (stable == current && proposal < current) {
            return "waiting for the scale-down delay (" + policy.scaleDownDelay() + " s): the last proposals "
                    + "still need " + current;
        }
        if (stable != proposal) {
            return (stable > current ? "scaling up" : "scaling down") + " as far as every proposal of its delay "
                    + "agrees (" + proposal + " proposed now)";
        }
        return desired > current ? "scaling up" : desired < current ? "scaling down" : "steady at " + current;
    }

    /** The proposals the windows can still need: those younger than the longer delay. */
    private static List<Recommendation> kept(Input in) {
        long window = Math.max(in.policy().scaleUpDelay(), in.policy().scaleDownDelay());
        Instant cutoff = in.now().minusSeconds(window);
        return in.recommendations().stream().filter(r -> r.at().isAfter(cutoff)).toList();
    }

    private static String describe(Proposal cpu, Proposal memory) {
        List<String> parts = new ArrayList<>();
        for (Proposal p : new Proposal[] {cpu, memory}) {
            if (p != null) {
                parts.add(p.describe());
            }
        }
        return String.join(", ", parts);
    }

    /** One target's proposal: the proportional rule with missing and unready instances counted conservatively. */
    private record Proposal(String metric, int target, Double mean, int measured, Integer instances) {

        static Proposal of(String metric, int target, Input in, java.util.function.Function<Instance, Double> figure) {
            List<Double> measured = new ArrayList<>();
            int missing = 0;
            int unready = 0;
            for (Instance i : in.instances()) {
                if (i.state() == ActualLrpState.RUNNING && !i.since().plus(in.warmup()).isAfter(in.now())) {
                    Double value = figure.apply(i);
                    if (value == null) {
                        missing++;
                    } else {
                        measured.add(value);
                    }
                } else if (i.state() != ActualLrpState.CRASHED) {
                    unready++;
                }
            }
            if (measured.isEmpty()) {
                return new Proposal(metric, target, null, 0, null);
            }
            double mean = measured.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            return new Proposal(metric, target, mean, measured.size(),
                    proportional(in.current(), target, measured, mean, missing, unready));
        }

        /** The HPA's replica calculation for one resource metric. */
        private static int proportional(int current, int target, List<Double> measured, double mean, int missing,
                int unready) {
            double ratio = mean / target;
            boolean upWithUnready = unready > 0 && ratio > 1;
            if (!upWithUnready && missing == 0) {
                return Math.abs(1 - ratio) <= TOLERANCE ? current : (int) Math.ceil(ratio * measured.size());
            }
            double sum = measured.stream().mapToDouble(Double::doubleValue).sum();
            int counted = measured.size();
            if (missing > 0) {
                sum += ratio < 1 ? (double) missing * target : 0; // at its target on a way down, idle on a way up
                counted += missing;
            }
            if (upWithUnready) {
                counted += unready; // idle
            }
            double newRatio = sum / counted / target;
            if (Math.abs(1 - newRatio) <= TOLERANCE || ratio < 1 && newRatio > 1 || ratio > 1 && newRatio < 1) {
                return current;
            }
            int proposal = (int) Math.ceil(newRatio * counted);
            return newRatio < 1 && proposal > current || newRatio > 1 && proposal < current ? current : proposal;
        }

        String describe() {
            if (mean == null) {
                return metric + ": no figures (target " + target + "%)";
            }
            return String.format(Locale.ROOT, "%s %.1f%% of target %d%% over %d instance%s", metric, mean, target,
                    measured, measured == 1 ? "" : "s");
        }
    }
}
