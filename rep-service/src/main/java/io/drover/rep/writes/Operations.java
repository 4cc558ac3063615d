package io.drover.rep.writes;

import io.drover.model.lrp.Actor;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ClaimRequest;
import io.drover.model.lrp.CrashReport;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.Outcome;
import io.drover.model.lrp.StartedInstance;
import io.drover.rep.cell.RepMetrics;
import io.drover.rep.executor.Container;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cell's calls into the lifecycle, each logged with stable keys and counted. Claims, starts, crashes, removals and
 * rejected placements go through the process's {@link GroupCommit}, so they share transactions with the other cells'
 * writes; rejections come back as outcomes, never as exceptions.
 */
public final class Operations {

    private static final Logger log = LoggerFactory.getLogger(Operations.class);

    private final GroupCommit commits;
    private final ActualLrpLifecycle lifecycle;
    private final RepMetrics metrics;
    private final String cellId;
    private final Actor actor;

    public Operations(GroupCommit commits, ActualLrpLifecycle lifecycle, RepMetrics metrics, String cellId) {
        this.commits = commits;
        this.lifecycle = lifecycle;
        this.metrics = metrics;
        this.cellId = cellId;
        this.actor = Actor.cell(cellId);
    }

    public Map<ActualLrpKey, Outcome> claim(Map<ActualLrpKey, ClaimRequest> claims) {
        Map<ActualLrpKey, Outcome> outcomes = commits.claim(claims);
        int claimed = 0;
        for (var e : outcomes.entrySet()) {
            if (e.getValue().succeeded()) {
                claimed++;
                log.info("claim-actual-lrp process_guid={} index={} cell={} instance_guid={}", e.getKey().processGuid(),
                        e.getKey().index(), cellId, claims.get(e.getKey()).owner().instanceGuid());
            } else {
                log.info("claim-actual-lrp-rejected process_guid={} index={} cell={} reason=\"{}\"",
                        e.getKey().processGuid(), e.getKey().index(), cellId, e.getValue().message());
            }
        }
        metrics.claimed(claimed);
        return outcomes;
    }

    public Map<ActualLrpKey, Outcome> start(List<Container> containers) {
        List<StartedInstance> started = containers.stream().map(c -> new StartedInstance(c.key(), c.domain(),
                InstanceOwner.of(c.instanceGuid(), cellId), c.netInfo(), c.runs())).toList();
        Map<ActualLrpKey, Outcome> outcomes = commits.start(started);
        int ok = 0;
        for (Container c : containers) {
            Outcome outcome = outcomes.get(c.key());
            if (outcome != null && outcome.succeeded()) {
                ok++;
                log.info("start-actual-lrp process_guid={} index={} cell={} instance_guid={} address={} ports={}",
                        c.key().processGuid(), c.key().index(), cellId, c.instanceGuid(), c.netInfo().address(),
                        c.netInfo().ports());
            } else if (outcome != null) {
                log.info("start-actual-lrp-rejected process_guid={} index={} cell={} instance_guid={} reason=\"{}\"",
                        c.key().processGuid(), c.key().index(), cellId, c.instanceGuid(), outcome.message());
            }
        }
        metrics.started(ok);
        return outcomes;
    }

    /** Records the crash; a slot that is no longer this container's has nothing to record. */
    public void crash(Container c) {
        String reason = c.reason() == null ? "crashed" : c.reason();
        Outcome outcome = commits.crash(Map.of(c.key(), new CrashReport(InstanceOwner.of(c.instanceGuid(), cellId),
                reason))).get(c.key());
        if (outcome.kind() == Outcome.Kind.CHANGED) {
            metrics.crashed();
            log.info("crash-actual-lrp process_guid={} index={} cell={} instance_guid={} reason=\"{}\"",
                    c.key().processGuid(), c.key().index(), cellId, c.instanceGuid(), reason);
        } else {
            log.info("crash-actual-lrp-skipped process_guid={} index={} cell={} instance_guid={} reason=\"{}\"",
                    c.key().processGuid(), c.key().index(), cellId, c.instanceGuid(), outcome.message());
        }
    }

    public Outcome remove(ActualLrpKey key, InstanceOwner owner, String reason) {
        Outcome outcome = commits.remove(Map.of(key, owner), reason).get(key);
        if (outcome.kind() == Outcome.Kind.CHANGED) {
            metrics.removed();
            log.info("remove-actual-lrp process_guid={} index={} cell={} instance_guid={} reason=\"{}\"",
                    key.processGuid(), key.index(), cellId, owner.instanceGuid(), reason);
        }
        return outcome;
    }

    /** This cell cannot take these placements: each is auctioned again, unless it was placed elsewhere meanwhile. */
    public void rejectPlacements(Map<ActualLrpKey, String> errors) {
        if (errors.isEmpty()) {
            return;
        }
        commits.reject(cellId, errors).forEach((key, outcome) -> {
            if (outcome.kind() == Outcome.Kind.CHANGED) {
                metrics.rejected(errors.get(key), 1);
                log.info("fail-placement process_guid={} index={} cell={} reason=\"{}\"", key.processGuid(),
                        key.index(), cellId, errors.get(key));
            }
        });
    }

    public void unclaim(Collection<ActualLrpKey> keys, String reason) {
        if (keys.isEmpty()) {
            return;
        }
        lifecycle.unclaim(keys, reason, actor).forEach((key, outcome) -> log.info(
                "unclaim-actual-lrp process_guid={} index={} cell={} reason=\"{}\" outcome={}", key.processGuid(),
                key.index(), cellId, reason, outcome.kind()));
    }

    /** Hands these slots over: each is auctioned again, and a running one keeps serving from its evacuating twin. */
    public void evacuate(Map<ActualLrpKey, InstanceOwner> owners) {
        if (owners.isEmpty()) {
            return;
        }
        lifecycle.evacuate(owners, actor).forEach((key, outcome) -> log.info(
                "evacuate-actual-lrp process_guid={} index={} cell={} outcome={}", key.processGuid(), key.index(),
                cellId, outcome.kind()));
    }

    public void destroyed(Container c, String reason) {
        metrics.destroyed();
        log.info("destroy-container process_guid={} index={} cell={} instance_guid={} reason=\"{}\"",
                c.key().processGuid(), c.key().index(), cellId, c.instanceGuid(), reason);
    }
}
