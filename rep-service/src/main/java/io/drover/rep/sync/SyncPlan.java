package io.drover.rep.sync;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.InstanceOwner;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.records.RecordView;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * SPEC 8.4 as one pure function: a cell's containers and the records that concern them in, repairs out. Containers
 * and records in {@code busy} (a stop is in flight) are left alone until the stop ends, so one container is handled by
 * at most one operation at a time.
 *
 * <p>While the cell evacuates (SPEC 8.5) the rules change: records this cell owns are unclaimed (re-auctioned) while
 * their containers keep serving; a container is stopped only when another incarnation is RUNNING in its slot, when
 * its record is gone, or when the drain deadline has passed.
 */
public final class SyncPlan {

    /** How the cell stands: taking work, draining, or draining past its deadline. */
    public enum Mode {
        NORMAL, EVACUATING, DEADLINE_PASSED
    }

    private SyncPlan() {
    }

    public static List<SyncAction> plan(String cellId, Collection<Container> containers,
            Map<ActualLrpKey, RecordView> records, Set<String> busy, Mode mode) {
        List<SyncAction> actions = new ArrayList<>();
        Set<String> present = new HashSet<>();
        for (Container c : containers) {
            present.add(c.instanceGuid());
            boolean over = c.state() == ContainerState.CRASHED || c.state() == ContainerState.STOPPED;
            if (over || !busy.contains(c.instanceGuid())) {
                SyncAction action = forContainer(cellId, c, records.get(c.key()), mode);
                if (action != null) {
                    actions.add(action);
                }
            }
        }
        for (RecordView r : records.values()) {
            if (!r.isOwned() || !cellId.equals(r.cellId()) || busy.contains(r.instanceGuid())) {
                continue;
            }
            if (!present.contains(r.instanceGuid())) {
                actions.add(new SyncAction.Remove(r.key(), r.owner(), null, "no container for record"));
            } else if (mode != Mode.NORMAL) {
                actions.add(new SyncAction.Unclaim(r.key()));
            }
        }
        return actions;
    }

    private static SyncAction forContainer(String cellId, Container c, RecordView r, Mode mode) {
        if (c.state() == ContainerState.CRASHED) {
            return new SyncAction.Crash(c);
        }
        if (c.state() == ContainerState.STOPPED) {
            return new SyncAction.Remove(c.key(), InstanceOwner.of(c.instanceGuid(), cellId), c, "container stopped");
        }
        if (mode == Mode.DEADLINE_PASSED) {
            return new SyncAction.Destroy(c, "evacuation deadline passed");
        }
        if (r != null && r.isOwned() && !r.isOwnedBy(c.instanceGuid(), cellId)) {
            boolean replacementStarting = mode == Mode.EVACUATING && r.state() == ActualLrpState.CLAIMED;
            return replacementStarting ? null
                    : new SyncAction.Destroy(c, "slot owned by " + r.instanceGuid() + "@" + r.cellId());
        }
        if (mode == Mode.EVACUATING) {
            return evacuating(c, r);
        }
        if (c.state() != ContainerState.RUNNING) {
            return null;
        }
        boolean recorded = r != null && r.state() == ActualLrpState.RUNNING;
        return recorded ? null : new SyncAction.Start(c);
    }

    private static SyncAction evacuating(Container c, RecordView r) {
        if (c.state() == ContainerState.STARTING) {
            return new SyncAction.Destroy(c, "evacuating: not yet serving");
        }
        return r == null ? new SyncAction.Destroy(c, "evacuating: record gone") : null;
    }
}
