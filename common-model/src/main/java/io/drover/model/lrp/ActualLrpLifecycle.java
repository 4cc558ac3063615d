package io.drover.model.lrp;

import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The only write path to {@code actual_lrps} (SPEC 3.3). Each operation is one short transaction: load the records in
 * one query, apply the {@link ActualLrp} verb to each, write them back with one versioned statement per kind of write,
 * and write the audit rows (which are also the lifecycle events) and the commands they cause. A lost optimistic-lock
 * race is retried from outside the transaction with a fresh read.
 *
 * <p>Batch forms return an {@link Outcome} per instance: an illegal transition of one instance does not stop the
 * others. Single forms throw {@link IllegalTransitionException} or {@link ActualLrpNotFoundException}.
 */
public class ActualLrpLifecycle {

    private final TransactionTemplate tx;
    private final ActualLrpOperations ops;
    private final LifecycleRecorder recorder;
    private final OptimisticRetry retry;
    private final Runnable guard;

    ActualLrpLifecycle(TransactionTemplate tx, ActualLrpOperations ops, LifecycleRecorder recorder,
            OptimisticRetry retry) {
        this(tx, ops, recorder, retry, () -> {
        });
    }

    private ActualLrpLifecycle(TransactionTemplate tx, ActualLrpOperations ops, LifecycleRecorder recorder,
            OptimisticRetry retry, Runnable guard) {
        this.tx = tx;
        this.ops = ops;
        this.recorder = recorder;
        this.retry = retry;
        this.guard = guard;
    }

    /**
     * This lifecycle with every operation's transaction running {@code guard} at its end, inside it, just before it
     * commits: a guard that throws rolls the operation back and its exception reaches the caller unretried. A
     * single-active service fences its writes this way (a {@code LeadershipFence}: its share lock on the leader lock
     * row is held until the commit, so no standby takes over before the writes are in), and a leader that lost its lock
     * while paused writes nothing. Last, not first: a row lock takes the transaction's id, and every read of the slots a
     * transaction changes must come before that (docs/architecture.md, "Keeping per-instance order in the event
     * stream").
     */
        public ActualLrpLifecycle guardedBy(Runnable guard) {
        return new ActualLrpLifecycle(tx, ops, recorder, retry, guard);
    }

    /** Creates the indices that do not exist yet as UNCLAIMED and requests one auction; returns the created ones. */
    public List<Integer> createUnclaimed(String processGuid, String domain, Collection<Integer> indices, String reason,
            Actor actor) {
        return run("create-unclaimed", actor,
                changes -> ops.createUnclaimed(processGuid, domain, indices, reason, null, changes));
    }

    /**
     * Creates missing indices of a desired LRP (converger rule 1), checked against the desired LRP as it is when the
     * repair is written: only indices below its instance count now, and nothing if it is gone. Returns the created ones.
     */
    public List<Integer> createMissing(String processGuid, String domain, Collection<Integer> indices, String reason,
            Actor actor) {
        return run("create-missing", actor, changes -> ops.createMissing(processGuid, domain, indices, reason, changes));
    }

    /** The auctioneer's result: each instance stays UNCLAIMED with its placement, and each cell gets one message. */
    public Map<ActualLrpKey, Outcome> place(UUID auctionId, Map<ActualLrpKey, String> cellByKey, Actor actor) {
        return run("place", actor, changes -> ops.place(auctionId, cellByKey, changes));
    }

    /** No cell could take these instances: they stay UNCLAIMED with the reason. */
    public Map<ActualLrpKey, Outcome> failPlacement(Map<ActualLrpKey, String> errorByKey, Actor actor) {
        return run("fail-placement", actor, changes -> ops.failPlacement(errorByKey, null, changes));
    }

    /**
     * A cell turns placements away (it cannot fit them after all): each fails only while it is still placed on
     * {@code cellId}, so a late rejection never undoes a newer placement.
     */
    public Map<ActualLrpKey, Outcome> rejectPlacement(String cellId, Map<ActualLrpKey, String> errorByKey,
            Actor actor) {
        return run("fail-placement", actor, changes -> ops.failPlacement(errorByKey, cellId, changes));
    }

    /** Claims by any number of cells at once; each change is audited as its owner's cell. */
    public Map<ActualLrpKey, Outcome> claimAll(Map<ActualLrpKey, ClaimRequest> claims, Actor actor) {
        return run("claim", actor, changes -> ops.claim(claims, actor, changes));
    }

    public Map<ActualLrpKey, Outcome> claim(Map<ActualLrpKey, InstanceOwner> ownerByKey, Actor actor) {
        Map<ActualLrpKey, ClaimRequest> claims = new LinkedHashMap<>();
        ownerByKey.forEach((key, owner) -> claims.put(key, ClaimRequest.of(owner)));
        return claimAll(claims, actor);
    }

    /** Claims one instance; throws when another cell owns it or it no longer exists. */
    public void claim(ActualLrpKey key, InstanceOwner owner, Actor actor) {
        throwIfFailed(key, claim(Map.of(key, owner), actor).get(key));
    }

    /** Containers up and healthy; a missing record is created RUNNING. */
    public Map<ActualLrpKey, Outcome> start(Collection<StartedInstance> started, Actor actor) {
        return run("start", actor, changes -> ops.start(started, actor, changes));
    }

    public void start(StartedInstance started, Actor actor) {
        throwIfFailed(started.key(), start(List.of(started), actor).get(started.key()));
    }

    /** The owners' containers exited: each comes back UNCLAIMED (restarting at once) or CRASHED. */
    public Map<ActualLrpKey, Outcome> crashAll(Map<ActualLrpKey, CrashReport> crashes, Actor actor) {
        return run("crash", actor, changes -> ops.crash(crashes, actor, changes));
    }

    /** The owner's container exited; returns UNCLAIMED (restarting at once) or CRASHED. */
    public ActualLrpState crash(ActualLrpKey key, InstanceOwner owner, String reason, Actor actor) {
        return run("crash", actor, changes -> {
            throwIfFailed(key, ops.crash(Map.of(key, new CrashReport(owner, reason)), actor, changes).get(key));
            return changes.actual.isEmpty() || changes.actual.get(0).after() == null ? ActualLrpState.UNCLAIMED
                    : changes.actual.get(0).after().state();
        });
    }

    /** Deletes the records these owners hold; a missing record is a no-op, another owner's is rejected. */
    public Map<ActualLrpKey, Outcome> removeAll(Map<ActualLrpKey, InstanceOwner> owners, String reason, Actor actor) {
        return run("remove", actor, changes -> ops.remove(owners, reason, actor, changes));
    }

    /** Deletes the record this owner holds; a missing record is a no-op, another owner's is rejected. */
    public Outcome remove(ActualLrpKey key, InstanceOwner owner, String reason, Actor actor) {
        return removeAll(Map.of(key, owner), reason, actor).get(key);
    }

    /**
     * The owners' cells drain: each slot is auctioned again and a RUNNING instance keeps serving from an evacuating
     * twin until its replacement runs (SPEC 8.5). The twin goes with {@link #removeAll} once the cell stopped it.
     */
    public Map<ActualLrpKey, Outcome> evacuate(Map<ActualLrpKey, InstanceOwner> owners, Actor actor) {
        return run("evacuate", actor, changes -> ops.evacuate(owners, actor, changes));
    }

    /**
     * Removes up to {@code limit} evacuating twins whose cell is gone (a drain cut short by a kill): their instances
     * serve no more, and the slots were handed over when the drain began.
     */
    public Map<ActualLrpKey, Outcome> removeEvacuatingOfLostCells(int limit, String reason, Actor actor) {
        return run("remove-lost-evacuating", actor, changes -> ops.removeTwinsOfLostCells(limit, reason, changes));
    }

    /** Stops these instances: unowned records are deleted, owned ones get a stop request (deleted if the cell is gone). */
    public Map<ActualLrpKey, Outcome> retire(Collection<ActualLrpKey> keys, String reason, Actor actor) {
        return run("retire", actor, changes -> ops.retire(keys, reason, changes));
    }

    /**
     * A deployment moves these slots to definition {@code version} (SPEC 14): unowned ones are auctioned at that version
     * at once, RUNNING ones too when {@code keepServing} (the old instance serves on from a twin kept for the
     * deployment), other owned ones get a stop request and are recreated at that version once gone.
     */
    public Map<ActualLrpKey, Outcome> roll(Collection<ActualLrpKey> keys, int version, boolean keepServing,
            String reason, Actor actor) {
        Map<ActualLrpKey, RollRequest> unchecked = new LinkedHashMap<>();
        keys.forEach(k -> unchecked.put(k, RollRequest.UNCHECKED));
        return roll(unchecked, version, keepServing, reason, actor);
    }

    /**
     * The same, each slot only as its {@link RollRequest} allows: while its record is still at the row version the
     * deployer read and its deployment still RUNNING. A deployer that decided from a read never acts on a record that
     * moved on since (turned RUNNING, crashed, was restarted), nor after a pause or a cancel.
     */
    public Map<ActualLrpKey, Outcome> roll(Map<ActualLrpKey, RollRequest> requests, int version, boolean keepServing,
            String reason, Actor actor) {
        return run("roll", actor, changes -> ops.roll(requests, version, keepServing, reason, changes));
    }

    /**
     * The new instances of these slots proved healthy: the twins a deployment kept for them are asked to stop (marked,
     * so that their cells' sync repeats a lost request), each only while its slot's record still runs the version
     * given. A slot without such a twin is a no-op.
     */
    public Map<ActualLrpKey, Outcome> releaseDeploymentTwins(Map<ActualLrpKey, Integer> runningVersion, String reason,
            Actor actor) {
        return run("release-deployment-twins", actor,
                changes -> ops.releaseDeploymentTwins(runningVersion, reason, changes));
    }

    /**
     * Retires up to {@code limit} twins whose slot has no record and is not desired (the LRP deleted or scaled below it
     * while the twin's stop was lost, say), in fresh domains: nothing else would ever stop them.
     */
    public Map<ActualLrpKey, Outcome> retireOrphanTwins(int limit, String reason, Actor actor) {
        return run("retire-orphan-twins", actor, changes -> ops.retireOrphanTwins(limit, reason, changes));
    }

    /** Back to UNCLAIMED with a new auction (lost cell, stale placement, evacuation, due crash restart). */
    public Map<ActualLrpKey, Outcome> unclaim(Collection<ActualLrpKey> keys, String reason, Actor actor) {
        return unclaim(keys, EnumSet.allOf(ActualLrpState.class), reason, actor);
    }

    /**
     * Unclaims only the instances still in one of {@code expected} states: a repair planned from a snapshot is
     * REJECTED, not applied, for an instance that moved on since (e.g. a rep claimed a placement rule 3 saw as stale).
     */
    public Map<ActualLrpKey, Outcome> unclaim(Collection<ActualLrpKey> keys, Set<ActualLrpState> expected,
            String reason, Actor actor) {
        return run("unclaim", actor, changes -> ops.unclaim(keys, expected, reason, changes));
    }

    public CrashRestartPolicy policy() {
        return ops.policy();
    }

    private <T> T run(String operation, Actor actor, Function<ChangeLog, T> work) {
        return retry.run(operation, () -> tx.execute(status -> {
            ChangeLog changes = new ChangeLog();
            T result = work.apply(changes);
            recorder.write(changes, actor);
            guard.run(); // last: see guardedBy
            LifecycleMetrics.transition(operation, changes.actual.size());
            return result;
        }));
    }

    static void throwIfFailed(ActualLrpKey key, Outcome outcome) {
        switch (outcome.kind()) {
            case NOT_FOUND -> throw new ActualLrpNotFoundException(key);
            case REJECTED -> throw new IllegalTransitionException(key, outcome.message());
            default -> {
            }
        }
    }
}
