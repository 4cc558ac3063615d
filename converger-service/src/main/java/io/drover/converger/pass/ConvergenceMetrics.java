package io.drover.converger.pass;

import io.drover.converger.plan.Plan;
import io.drover.converger.plan.Rule;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The converger's meters (SPEC 10): pass duration, actions by rule (applied or skipped), LRPs missing and extra as of
 * the last pass, actions a stale domain held back, lost-cell unclaims and stale re-auctions deferred by the rate
 * limits, and failed passes.
 */
class ConvergenceMetrics {

    private final Timer passDuration;
    private final Map<Rule, Counter> applied = new EnumMap<>(Rule.class);
    private final Map<Rule, Counter> skipped = new EnumMap<>(Rule.class);
    private final Counter unfreshExtra;
    private final Counter unfreshOrphan;
    private final Counter lostCellDeferred;
    private final Counter staleUnclaimedDeferred;
    private final Counter passes;
    private final Counter failedPasses;
    private final AtomicInteger missing = new AtomicInteger();
    private final AtomicInteger extra = new AtomicInteger();

    ConvergenceMetrics(MeterRegistry registry) {
        passDuration = Timer.builder("drover.convergence.pass.duration").register(registry);
        for (Rule rule : Rule.values()) {
            applied.put(rule, actions(registry, rule, "applied"));
            skipped.put(rule, actions(registry, rule, "skipped"));
        }
        unfreshExtra = registry.counter("drover.convergence.skipped.unfresh", "rule", Rule.EXTRA_INDEX.tag());
        unfreshOrphan = registry.counter("drover.convergence.skipped.unfresh", "rule", Rule.ORPHAN.tag());
        lostCellDeferred = registry.counter("drover.convergence.lost.cell.deferred");
        staleUnclaimedDeferred = registry.counter("drover.convergence.stale.unclaimed.deferred");
        passes = registry.counter("drover.convergence.passes", "result", "ok");
        failedPasses = registry.counter("drover.convergence.passes", "result", "failed");
        registry.gauge("drover.convergence.lrps.missing", missing);
        registry.gauge("drover.convergence.lrps.extra", extra);
    }

    void record(PassReport report) {
        Plan plan = report.plan();
        passDuration.record(report.total());
        for (Rule rule : Rule.values()) {
            applied.get(rule).increment(report.execution().applied(rule));
            skipped.get(rule).increment(report.execution().skipped(rule));
        }
        unfreshExtra.increment(plan.unfreshExtraIndices());
        unfreshOrphan.increment(plan.unfreshOrphans());
        lostCellDeferred.increment(plan.deferredLostCell());
        staleUnclaimedDeferred.increment(plan.deferredStaleUnclaimed());
        missing.set(plan.missingInstances());
        extra.set(plan.extraInstances());
        passes.increment();
    }

    void failed() {
        failedPasses.increment();
    }

    private static Counter actions(MeterRegistry registry, Rule rule, String outcome) {
        return Counter.builder("drover.convergence.actions").tag("rule", rule.tag()).tag("outcome", outcome)
                .register(registry);
    }
}
