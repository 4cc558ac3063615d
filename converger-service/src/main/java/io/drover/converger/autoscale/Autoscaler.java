package io.drover.converger.autoscale;

import io.drover.converger.autoscale.Scaling.Decision;
import io.drover.model.autoscale.AutoscalerRecords;
import io.drover.model.autoscale.AutoscalerRecords.Evaluation;
import io.drover.model.autoscale.AutoscalingStatus;
import io.drover.model.leader.LeadershipLostException;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.DesiredLrpUpdate;
import io.drover.model.read.AutoscaledLrp;
import io.drover.model.read.AutoscaledLrps;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One tick of every autoscaled LRP, top to bottom: read them (four queries whatever their number), decide each with the
 * pure {@link Scaling}, apply each change as the LRP's ordinary update (a compare-and-swap on the version read, with its
 * event and an audit row that names the autoscaler and the figures), then record every decision and sample in one
 * transaction. All it knows between ticks is in PostgreSQL, so a new leader continues where the old one stopped.
 */
class Autoscaler {

    static final Actor ACTOR = Actor.service("autoscaler");
    private static final Logger log = LoggerFactory.getLogger(Autoscaler.class);

    private final AutoscaledLrps reads;
    private final DesiredLrpLifecycle desired;
    private final AutoscalerRecords records;
    private final Clock clock;
    private final Duration warmup;

    /** @param desired and {@code records} fenced by the converger's leader lock */
    Autoscaler(AutoscaledLrps reads, DesiredLrpLifecycle desired, AutoscalerRecords records, Clock clock,
            Duration warmup) {
        this.reads = reads;
        this.desired = desired;
        this.records = records;
        this.clock = clock;
        this.warmup = warmup;
    }

    /** What one tick did: LRPs decided, scaled up, scaled down. */
    record Tick(int decided, int up, int down) {
    }

    Tick tick() {
        Instant now = clock.instant();
        List<AutoscaledLrp> lrps = reads.all();
        List<Evaluation> evaluations = new ArrayList<>(lrps.size());
        int up = 0;
        int down = 0;
        for (AutoscaledLrp lrp : lrps) {
            Evaluation e = evaluate(lrp, now);
            up += e.instances() > lrp.instances() ? 1 : 0;
            down += e.instances() < lrp.instances() ? 1 : 0;
            evaluations.add(e);
        }
        records.write(evaluations, now);
        return new Tick(lrps.size(), up, down);
    }

    private Evaluation evaluate(AutoscaledLrp lrp, Instant now) {
        List<Scaling.Instance> instances = lrp.slots().stream()
                .map(i -> new Scaling.Instance(i.state(), i.since(), i.cpuPercent(), i.memoryPercent())).toList();
        Decision d = Scaling.decide(new Scaling.Input(lrp.policy(), lrp.instances(), instances,
                lrp.previous().recommendations(), lrp.deploying(), now, warmup));
        AutoscaledLrp.Previous last = lrp.previous();
        String condition = d.condition();
        int after = lrp.instances();
        if (d.scales(lrp.instances())) {
            String reason = "autoscaled from " + lrp.instances() + " to " + d.desired() + ": " + d.figures() + " ("
                    + d.condition() + ")";
            if (scale(lrp, d.desired(), reason)) {
                after = d.desired();
                last = new AutoscaledLrp.Previous(List.of(), now, lrp.instances(), after, reason);
            } else {
                condition += "; not applied, the LRP changed since it was read (next tick)";
            }
        }
        AutoscalingStatus status = new AutoscalingStatus(now, d.cpuMean(), d.memoryMean(), d.counted(), d.desired(),
                condition, last.lastScaleAt(), last.lastScaleFrom(), last.lastScaleTo(), last.lastScaleReason());
        return new Evaluation(lrp.processGuid(), status, d.recommendations(), after);
    }

    /**
     * The ordinary update, only while the LRP is at the version this tick read: a user's change meanwhile (a scale, a
     * new policy, a delete) wins, and the next tick decides on it. A lost leadership ends the tick.
     */
    private boolean scale(AutoscaledLrp lrp, int instances, String reason) {
        try {
            desired.update(lrp.processGuid(), DesiredLrpUpdate.scale(instances), List.of(lrp.modificationTag()),
                    reason, ACTOR);
            log.info("autoscale process_guid={} from={} to={} reason=\"{}\"", lrp.processGuid(), lrp.instances(),
                    instances, reason);
            return true;
        } catch (LeadershipLostException e) {
            throw e;
        } catch (RuntimeException e) {
            log.info("autoscale-skipped process_guid={} to={} cause={}", lrp.processGuid(), instances, e.toString());
            return false;
        }
    }
}
