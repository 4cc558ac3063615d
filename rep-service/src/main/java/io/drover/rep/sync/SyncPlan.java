package io.drover.rep.sync;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.planted.PlantedBug;
import io.drover.rep.evacuation.Drain;
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
 * <p>While the cell evacuates (SPEC 8.5) the rules change: each record this cell owns is handed over (its slot is
 * auctioned again) while the container keeps serving from the record's evacuating twin; once its replacement is RUNNING
 * elsewhere the twin is removed (the API stops listing it) and the container stops one pass later; it stops at once if
 * its slot was retired (scaled down, deleted, restarted), or once the drain's
 * deadline has passed. Nothing is recorded RUNNING again on a draining cell. A cell that stops draining half way (an
 * operator undrains it, SPEC 18) keeps what it handed over handed over: each twin's container serves by the same
 * rules until its slot runs elsewhere.
 *
 * <p>A twin a deployment keeps (SPEC 14) serves on a cell that is not draining until the deployer asks it to stop. A
 * twin whose stop was asked (its slot retired, or the deployment's new instance healthy) is stopped from the mark on
 * it, so a stop request lost on the way is repeated here; its removal then deletes the twin.
 */
public final class SyncPlan {

    private SyncPlan() {
    }

    /**
     * @param records the records of the slots this cell's containers run and of those it owns
     * @param twins the evacuating twins this cell holds, by slot
     */
    public static List<SyncAction> plan(String cellId, Collection<Container> containers,
            Map<ActualLrpKey, RecordView> records, Map<ActualLrpKey, RecordView> twins, Set<String> busy, Drain.Mode mode) {
        List<SyncAction> actions = new ArrayList<>();
        Set<String> present = new HashSet<>();
        for (Container c : containers) {
            present.add(c.instanceGuid());
            boolean over = c.state() == ContainerState.CRASHED || c.state() == ContainerState.STOPPED;
            if (over || !busy.contains(c.instanceGuid())) {
                RecordView twin = twins.get(c.key());
                boolean twinHeld = twin != null && c.instanceGuid().equals(twin.instanceGuid());
                SyncAction action = twinHeld && twin.stopRequested() != null && isServing(c)
                        ? new SyncAction.Stop(c, twin.stopRequested())
                        : mode == Drain.Mode.NORMAL && twinHeld && twin.keptForDeployment() && isServing(c) ? null
                        : forContainer(cellId, c, records.get(c.key()), twinHeld, mode);
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
            } else if (mode != Drain.Mode.NORMAL && r.stopRequested() == null) {
                actions.add(new SyncAction.Evacuate(r.key(), r.owner()));
            }
        }
        for (RecordView twin : twins.values()) {
            if (!present.contains(twin.instanceGuid()) && !busy.contains(twin.instanceGuid())) {
                actions.add(new SyncAction.Remove(twin.key(), twin.owner(), null, "no container for evacuating record"));
            }
        }
        return actions;
    }

    /**
     * A deployment's twin serves until the deployer removes it (and asks for its stop) once the slot's new instance has
     * proved healthy (SPEC 14); until then its container is neither stopped nor recorded again in its slot.
     */
    private static boolean isServing(Container c) {
        return c.state() == ContainerState.RUNNING || c.state() == ContainerState.STARTING;
    }

    private static SyncAction forContainer(String cellId, Container c, RecordView r, boolean twinHeld, Drain.Mode mode) {
        if (c.state() == ContainerState.CRASHED) {
            return new SyncAction.Crash(c);
        }
        if (c.state() == ContainerState.STOPPED) {
            return new SyncAction.Remove(c.key(), InstanceOwner.of(c.instanceGuid(), cellId), c, "container stopped");
        }
        if (mode == Drain.Mode.DEADLINE_PASSED) {
            return new SyncAction.Destroy(c, "evacuation deadline passed");
        }
        if (r != null && r.stopRequested() != null && r.isOwnedBy(c.instanceGuid(), cellId)) {
            return new SyncAction.Stop(c, r.stopRequested());
        }
        if (mode == Drain.Mode.EVACUATING || twinHeld) {
            // a twin's container serves until its slot runs elsewhere even once the cell stopped draining (undrained,
            // or its rep restarted without draining): a handed-over slot stays handed over
            return evacuating(cellId, c, r, twinHeld);
        }
        if (r != null && r.isOwned() && !r.isOwnedBy(c.instanceGuid(), cellId)
                && !PlantedBug.SYNC_KEEPS_DUPLICATES.planted()) {
            return new SyncAction.Destroy(c, "slot owned by " + r.instanceGuid() + "@" + r.cellId());
        }
        if (c.state() != ContainerState.RUNNING) {
            return null;
        }
        boolean recorded = r != null && r.state() == ActualLrpState.RUNNING;
        return recorded ? null : new SyncAction.Start(c);
    }

    /** A draining cell's container keeps serving until its slot runs elsewhere or no record wants it any more. */
    private static SyncAction evacuating(String cellId, Container c, RecordView r, boolean twinHeld) {
        if (c.state() == ContainerState.STARTING) {
            return new SyncAction.Destroy(c, "evacuating: not yet serving");
        }
        if (r == null) {
            // Neither the slot's record nor (once handed over) this container's twin: the slot was retired.
            return new SyncAction.Destroy(c, twinHeld ? "evacuating: slot retired" : "evacuating: no record");
        }
        if (r.isOwnedBy(c.instanceGuid(), cellId)) {
            return null; // handed over by the records' pass below
        }
        if (r.state() == ActualLrpState.RUNNING && twinHeld) {
            // Deregister first, stop on the next pass: a client that listed the twin a moment ago still gets an answer.
            return new SyncAction.Remove(c.key(), InstanceOwner.of(c.instanceGuid(), cellId), null,
                    "evacuated: replacement running on " + r.cellId());
        }
        if (r.state() == ActualLrpState.RUNNING) {
            return new SyncAction.Destroy(c, "evacuating: replacement running on " + r.cellId());
        }
        // UNCLAIMED, CLAIMED by the replacement or CRASHED: keep serving from the twin (or until the deadline).
        return null;
    }
}
