package io.drover.rep.sync;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.InstanceOwner;
import io.drover.rep.executor.Container;

/** One repair the sync loop decided on; each names the container or record it is about. */
public sealed interface SyncAction {

    /** The container runs: record it RUNNING (recreates a missing record). */
    record Start(Container container) implements SyncAction {
    }

    /** The container crashed: record the crash, then forget it. */
    record Crash(Container container) implements SyncAction {
    }

    /** Delete the record this cell owns; {@code container} (stopped) is forgotten afterwards, or null when none. */
    record Remove(ActualLrpKey key, InstanceOwner owner, Container container, String reason) implements SyncAction {
    }

    /** The container's own record asks it to stop (a restart, a scale-down): stop it; its removal carries the reason. */
    record Stop(Container container, String reason) implements SyncAction {
    }

    /** Stop the container without touching its record: someone else owns the slot, or the drain is over. */
    record Destroy(Container container, String reason) implements SyncAction {
    }

    /**
     * Evacuating: hand the slot over (auctioned to another cell) while this container keeps serving from an evacuating
     * twin of its record, visible with its address until the replacement runs.
     */
    record Evacuate(ActualLrpKey key, InstanceOwner owner) implements SyncAction {
    }
}
