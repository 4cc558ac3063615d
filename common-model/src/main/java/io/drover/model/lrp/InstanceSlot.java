package io.drover.model.lrp;

import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.placement.Placement;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.function.Predicate;

/**
 * One instance slot of a desired LRP, the aggregate of SPEC 3: its record (none when the slot has none) and, during a
 * drain or a rolling update, the twin that keeps the old incarnation serving until its replacement runs. Every rule
 * that involves both lives here; the rules of one row live in {@link ActualLrp} and {@link Transitions}.
 *
 * <p>Each verb notes what it changed and asks for in the transaction's {@link ChangeLog}, returns whether it changed
 * anything ({@code false}: an exact repeat, a no-op) and throws {@link IllegalTransitionException} for what the rules
 * forbid. A verb that needs a record throws {@link ActualLrpNotFoundException} when the slot has none.
 */
final class InstanceSlot {

    private final ActualLrpKey key;
    private final Instant now;
    private final CrashRestartPolicy policy;
    private final Supplier<UUID> ids;
    private final ChangeLog changes;
    private ActualLrp record;
    private ActualLrp twin;

    InstanceSlot(ActualLrpKey key, ActualLrp record, ActualLrp twin, Instant now, CrashRestartPolicy policy,
            Supplier<UUID> ids, ChangeLog changes) {
        this.key = key;
        this.record = record;
        this.twin = twin;
        this.now = now;
        this.policy = policy;
        this.ids = ids;
        this.changes = changes;
    }

    /** A new UNCLAIMED record at {@code definitionVersion}, auctioned; a slot that has a record keeps it (false). */
    boolean create(String domain, int definitionVersion, String reason, Actor actor) {
        if (record != null) {
            return false;
        }
        record = ActualLrp.unclaimed(key, domain, ids.get(), now, definitionVersion);
        changes.actualCreated(record, reason, actor);
        changes.auction(record, reason);
        return true;
    }

    /**
     * The auctioneer placed the record on {@code cell}: it stays UNCLAIMED, and the cell gets it in its auction result.
     * A placement is not a change clients see, so it is published only when it clears a placement error.
     */
    boolean place(String cell, UUID lrpEpoch) {
        ActualLrp lrp = record();
        ActualLrpSnapshot before = lrp.placementError() == null ? null : lrp.snapshot(policy);
        if (!lrp.place(cell, now)) {
            return false;
        }
        if (before == null) {
            changes.actualWritten(lrp);
        } else {
            changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CHANGED, before, lrp, "placed on " + cell, null);
        }
        changes.placed(cell, lrp, lrpEpoch);
        return true;
    }

    /** {@code placedOn}: the cell turning its placement away, or null when no cell could be chosen. */
    boolean failPlacement(String error, String placedOn) {
        ActualLrp lrp = record();
        return changed(lrp, error, null, () -> lrp.failPlacement(error, placedOn, now));
    }

    /** A cell takes the record up, following the auction's {@code placement} (null: whatever the placement). */
    boolean claim(InstanceOwner owner, Placement placement, Actor actor) {
        ActualLrp lrp = record();
        return changed(lrp, "claimed by " + owner.cellId(), actor.on(owner), () -> lrp.claim(owner, placement, now));
    }

    /**
     * A container is up and healthy. The container of the slot's twin is recorded by the twin (a no-op here). A
     * container that did not claim the record takes it only if it runs the definition the slot wants: the same life of
     * the LRP ({@code current}, null when the LRP is gone) and the version the record wants. A running container with
     * no record gets one (SPEC 3.3: it is never killed for that), at the version it runs.
     */
    boolean start(StartedInstance started, DesiredVersion current, Actor actor) {
        InstanceOwner owner = started.owner();
        if (twin != null && twin.isOwnedBy(owner)) {
            return false;
        }
        DefinitionId runs = started.runs();
        if (runs != null && current != null && !runs.lrpEpoch().equals(current.lrpEpoch())
                && (record == null || !record.isOwnedBy(owner))) {
            throw new IllegalTransitionException(key, "cannot start: " + owner.instanceGuid() + " runs a definition "
                    + "of an earlier life of " + key.processGuid() + " (deleted and desired again)");
        }
        if (record == null) {
            int version = runs != null ? runs.version() : current != null ? current.version() : 1;
            record = ActualLrp.running(key, started.domain(), ids.get(), owner, started.netInfo(), now, version);
            changes.actualCreated(record, "running container had no record", actor.on(owner));
            return true;
        }
        ActualLrp lrp = record;
        return changed(lrp, "started on " + owner.cellId(), actor.on(owner),
                () -> lrp.start(owner, started.netInfo(), runs == null ? null : runs.version(), now));
    }

    /**
     * The owner's container exited; the record comes back UNCLAIMED (auctioned at once) or CRASHED, per the policy. A
     * twin's container that exits is not a crash of the slot (its replacement is on its way): the twin is removed.
     */
    boolean crash(CrashReport report, Actor actor) {
        InstanceOwner owner = report.owner();
        if (twin != null && twin.isOwnedBy(owner) && (record == null || !record.isOwnedBy(owner))) {
            removeTwin("crashed while " + (twin.isKeptForDeployment() ? "replaced" : "evacuating") + ": "
                    + report.reason(), actor.on(owner));
            return true;
        }
        ActualLrp lrp = record();
        ActualLrpSnapshot before = lrp.snapshot(policy);
        ActualLrpState after = lrp.crash(owner, report.reason(), policy, now);
        // Diego announces a crash twice: as a crash, and as the change a client following changes must see
        changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CRASHED, before, lrp, report.reason(), actor.on(owner));
        changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CHANGED, before, lrp, report.reason(), actor.on(owner));
        if (after == ActualLrpState.UNCLAIMED) {
            changes.auction(lrp, "restart after crash");
        }
        return true;
    }

    /** The owner's container is gone: the row it holds (the record or the twin) goes; a slot without one is a no-op. */
    boolean remove(InstanceOwner owner, String reason, Actor actor) {
        if (twin != null && twin.isOwnedBy(owner)) {
            removeTwin(reason, actor.on(owner));
            return true;
        }
        if (record == null) {
            return false;
        }
        ActualLrpSnapshot before = record.snapshot(policy);
        record.remove(owner);
        changes.actualRemoved(record, before, reason, actor.on(owner));
        record = null;
        return true;
    }

    /**
     * The owner's cell drains (SPEC 8.5): the record is auctioned again and a RUNNING instance keeps serving from an
     * evacuating twin until its replacement runs. Repeating the drain of a slot whose twin this owner holds already is
     * a no-op; a slot whose twin another incarnation still holds waits (rejected) until that twin is gone.
     */
    boolean evacuate(InstanceOwner owner, Actor actor) {
        if (twin != null && twin.isOwnedBy(owner)) {
            return false;
        }
        ActualLrp lrp = record();
        if (twin != null && lrp.state() == ActualLrpState.RUNNING) {
            throw new IllegalTransitionException(key, "cannot evacuate: " + twin.instanceGuid() + "@" + twin.cellId()
                    + " is still serving this slot from its twin");
        }
        String reason = "evacuating cell " + owner.cellId();
        ActualLrpSnapshot before = lrp.snapshot(policy);
        keepTwin(lrp.evacuate(owner, now), reason, actor.on(owner));
        changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CHANGED, before, lrp, reason, actor.on(owner));
        changes.auction(lrp, "evacuation");
        return true;
    }

    /**
     * A deployment moves the slot to definition {@code version} (SPEC 14), only as its {@code request} allows: while
     * the record is still at the row version the deployer read, and while the deployment is running
     * ({@code deploymentRunning}, read under a share lock on its row). An UNCLAIMED or CRASHED record is rolled at once
     * (auctioned at the new version); a RUNNING one too when {@code keepServing} and the slot has no twin yet, its
     * instance serving on from a twin kept for the deployment. A surge of a slot whose last twin was asked to stop and
     * still waits for its cell is refused (the next tick tries again): that twin serves nothing, so the record is the
     * slot's only serving instance. Any other owned record (CLAIMED, or RUNNING without a twin to keep) has its owner
     * asked to stop: the record goes with the container and the deployer creates it again at the new version. A
     * record at that version already is a no-op.
     */
    boolean roll(int version, boolean keepServing, RollRequest request, boolean deploymentRunning, String reason) {
        if (!deploymentRunning) {
            throw new IllegalTransitionException(key, "deployment " + request.deploymentId() + " is not running");
        }
        ActualLrp lrp = record();
        if (request.seenVersion() >= 0 && request.seenVersion() != lrp.version()) {
            throw new IllegalTransitionException(key, "changed since the deployer read it (version " + lrp.version()
                    + ", read " + request.seenVersion() + ")");
        }
        if (lrp.definitionVersion() == version) {
            return false;
        }
        if (keepServing && lrp.state() == ActualLrpState.RUNNING && twin != null && twin.stopRequested() != null) {
            // the twin serves nothing any more: stopping the record in place would leave the slot with no instance
            throw new IllegalTransitionException(key, "its last twin is still stopping: a surge waits for its place");
        }
        if (lrp.state() == ActualLrpState.CLAIMED
                || lrp.state() == ActualLrpState.RUNNING && !(keepServing && twin == null)) {
            return askToStop(lrp, reason);
        }
        ActualLrpSnapshot before = lrp.snapshot(policy);
        keepTwin(lrp.roll(version, now), reason, null);
        changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CHANGED, before, lrp, reason, null);
        changes.auction(lrp, reason);
        return true;
    }

    /**
     * The deployment's new instance proved healthy: the twin the deployment kept is asked to stop, only while the record
     * still RUNs {@code version}. Like every twin asked to stop, it leaves the API (and the lifecycle events announce
     * its removal) at once, so that nothing calls the old instance once it is asked to stop; its row keeps the mark,
     * and its resources, until its cell has stopped the container and removes it, and the cell's sync repeats a stop
     * request lost on the way. A slot without such a twin, or whose twin was asked already, is a no-op.
     */
    boolean releaseDeploymentTwin(int version, String reason) {
        if (twin == null || !twin.isKeptForDeployment() || twin.stopRequested() != null) {
            return false;
        }
        if (record == null || record.state() != ActualLrpState.RUNNING || record.definitionVersion() != version) {
            throw new IllegalTransitionException(key, "the new instance is not running version " + version
                    + " any more (" + (record == null ? "no record" : record.state() + " at version "
                            + record.definitionVersion()) + ")");
        }
        return askToStop(twin, reason);
    }

    /**
     * The slot is no longer wanted (SPEC 3.3 retire), the twin with the record: an unowned row, or one owned by a cell
     * that is gone, is deleted at once; a live owner is asked to stop its container, and its removal deletes the row.
     */
    boolean retire(Predicate<String> cellIsLive, String reason) {
        if (record == null && twin == null) {
            return false;
        }
        boolean changed = false;
        if (twin != null) {
            changed = retireRow(twin, cellIsLive, reason);
        }
        if (record != null) {
            changed |= retireRow(record, cellIsLive, reason);
        }
        return changed;
    }

    /** A twin that no record of its slot wants (its LRP gone, or scaled below it) is retired like a slot. */
    boolean retireOrphanTwin(Predicate<String> cellIsLive, String reason) {
        if (twin == null || record != null) {
            return false;
        }
        return retireRow(twin, cellIsLive, reason);
    }

    /** Back to UNCLAIMED with a new auction, from one of {@code expected} (the states the repair was planned for). */
    boolean unclaim(Set<ActualLrpState> expected, String reason) {
        ActualLrp lrp = record();
        ActualLrpSnapshot before = lrp.snapshot(policy);
        lrp.unclaim(expected, now);
        changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CHANGED, before, lrp, reason, null);
        changes.auction(lrp, reason);
        return true;
    }

    /** The twin's cell is gone: nothing serves from it any more. */
    boolean removeTwinOfLostCell(String reason) {
        if (twin == null) {
            return false;
        }
        removeTwin(reason, null);
        return true;
    }

    private boolean retireRow(ActualLrp row, Predicate<String> cellIsLive, String reason) {
        if (row.isOwned() && cellIsLive.test(row.cellId())) {
            boolean first = askToStop(row, reason);
            if (!first) {
                changes.stop(row, reason, ids.get()); // asked before: ask again, the owner may not have heard
            }
            return true;
        }
        if (row == twin) {
            removeTwin(reason, null);
        } else {
            changes.actualRemoved(row, row.snapshot(policy), reason, null);
            record = null;
        }
        return true;
    }

    /**
     * Marks the row's container as asked to stop and asks its cell; false when it was marked already. The mark is what
     * the owner's sync repeats the stop from. A record stays listed until its container is gone; a twin leaves the
     * listing at once (it only ever served an instance being replaced).
     */
    private boolean askToStop(ActualLrp row, String reason) {
        ActualLrpSnapshot before = row.snapshot(policy);
        if (!row.requestStop(reason)) {
            return false;
        }
        changes.stop(row, reason, ids.get());
        if (row == twin) {
            changes.twinDeregistered(row, before, reason, null);
        } else {
            changes.actualWritten(row);
            changes.actualNoted(LifecycleEvent.ACTUAL_LRP_STOP_REQUESTED, row.snapshot(policy), row, reason, null);
        }
        return true;
    }

    private void keepTwin(ActualLrp created, String reason, Actor actor) {
        if (created != null) {
            twin = created;
            changes.actualCreated(created, reason, actor);
        }
    }

    /** The twin's row goes; its removal was announced already if it had been asked to stop. */
    private void removeTwin(String reason, Actor actor) {
        changes.actualRemoved(twin, twin.snapshot(policy), reason, actor, twin.stopRequested() == null);
        twin = null;
    }

    private boolean changed(ActualLrp lrp, String reason, Actor actor, BooleanSupplier verb) {
        ActualLrpSnapshot before = lrp.snapshot(policy);
        boolean changed = verb.getAsBoolean();
        if (changed) {
            changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CHANGED, before, lrp, reason, actor);
        }
        return changed;
    }

    private ActualLrp record() {
        if (record == null) {
            throw new ActualLrpNotFoundException(key);
        }
        return record;
    }

    /** The slot has neither a record nor a twin. */
    boolean isEmpty() {
        return record == null && twin == null;
    }

    /** Whether {@code owner} holds the record or the twin. */
    boolean ownedBy(InstanceOwner owner) {
        return record != null && record.isOwnedBy(owner) || twin != null && twin.isOwnedBy(owner);
    }

    /** The slot's rows as they are now: the record, then the twin, each when there is one. */
    java.util.stream.Stream<ActualLrp> rows() {
        return java.util.stream.Stream.of(record, twin).filter(java.util.Objects::nonNull);
    }

    /** The life and current definition version of a desired LRP, as a start checks a container against them. */
    record DesiredVersion(UUID lrpEpoch, int version) {
    }
}
