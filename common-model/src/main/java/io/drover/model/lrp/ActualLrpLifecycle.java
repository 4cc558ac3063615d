package io.drover.model.lrp;

import jakarta.persistence.EntityManager;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The only write path to {@code actual_lrps} (SPEC 3.3). Each operation is one short transaction that loads the
 * records, applies the {@link ActualLrp} verb, saves with a version check and writes the audit rows and messages it
 * causes. A lost optimistic-lock race is retried from outside the transaction with a fresh read.
 *
 * <p>Batch forms return an {@link Outcome} per instance: an illegal transition of one instance does not stop the
 * others. Single forms throw {@link IllegalTransitionException} or {@link ActualLrpNotFoundException}.
 */
public class ActualLrpLifecycle {

    private final TransactionTemplate tx;
    private final EntityManager em;
    private final ActualLrpOperations ops;
    private final LifecycleRecorder recorder;
    private final OptimisticRetry retry;
    private final Runnable guard;

    ActualLrpLifecycle(TransactionTemplate tx, EntityManager em, ActualLrpOperations ops, LifecycleRecorder recorder,
            OptimisticRetry retry) {
        this(tx, em, ops, recorder, retry, () -> {
        });
    }

    private ActualLrpLifecycle(TransactionTemplate tx, EntityManager em, ActualLrpOperations ops,
            LifecycleRecorder recorder, OptimisticRetry retry, Runnable guard) {
        this.tx = tx;
        this.em = em;
        this.ops = ops;
        this.recorder = recorder;
        this.retry = retry;
        this.guard = guard;
    }

    /**
     * This lifecycle with every operation's transaction first running {@code guard}, inside it: a guard that throws
     * rolls the operation back and its exception reaches the caller unretried. A single-active service fences its
     * writes this way (e.g. with {@code LeaderLock.isHeld}), so a leader that lost its lock while paused writes nothing.
     */
    public ActualLrpLifecycle guardedBy(Runnable guard) {
        return new ActualLrpLifecycle(tx, em, ops, recorder, retry, guard);
    }

    /** Creates the indices that do not exist yet as UNCLAIMED and requests one auction; returns the created ones. */
    public List<Integer> createUnclaimed(String processGuid, String domain, Collection<Integer> indices, String reason,
            Actor actor) {
        return run("create-unclaimed", actor, changes -> ops.createUnclaimed(processGuid, domain, indices, reason, changes));
    }

    /** The auctioneer's result: each instance stays UNCLAIMED with its placement, and each cell gets one message. */
    public Map<ActualLrpKey, Outcome> place(UUID auctionId, Map<ActualLrpKey, String> cellByKey, Actor actor) {
        return run("place", actor, changes -> ops.place(auctionId, cellByKey, changes));
    }

    /** No cell could take these instances (or a cell rejected them): they stay UNCLAIMED with the reason. */
    public Map<ActualLrpKey, Outcome> failPlacement(Map<ActualLrpKey, String> errorByKey, Actor actor) {
        return run("fail-placement", actor, changes -> ops.failPlacement(errorByKey, changes));
    }

    public Map<ActualLrpKey, Outcome> claim(Map<ActualLrpKey, InstanceOwner> ownerByKey, Actor actor) {
        return run("claim", actor, changes -> ops.claim(ownerByKey, changes));
    }

    /** Claims one instance; throws when another cell owns it or it no longer exists. */
    public void claim(ActualLrpKey key, InstanceOwner owner, Actor actor) {
        throwIfFailed(key, claim(Map.of(key, owner), actor).get(key));
    }

    /** Containers up and healthy; a missing record is created RUNNING. */
    public Map<ActualLrpKey, Outcome> start(Collection<StartedInstance> started, Actor actor) {
        return run("start", actor, changes -> ops.start(started, changes));
    }

    public void start(StartedInstance started, Actor actor) {
        throwIfFailed(started.key(), start(List.of(started), actor).get(started.key()));
    }

    /** The owner's container exited; returns UNCLAIMED (restarting at once) or CRASHED. */
    public ActualLrpState crash(ActualLrpKey key, InstanceOwner owner, String reason, Actor actor) {
        return run("crash", actor, changes -> ops.crash(key, owner, reason, changes));
    }

    /** Deletes the record this owner holds; a missing record is a no-op, another owner's is rejected. */
    public Outcome remove(ActualLrpKey key, InstanceOwner owner, String reason, Actor actor) {
        return run("remove", actor, changes -> ops.remove(key, owner, reason, changes));
    }

    /** Stops these instances: unowned records are deleted, owned ones get a stop request (deleted if the cell is gone). */
    public Map<ActualLrpKey, Outcome> retire(Collection<ActualLrpKey> keys, String reason, Actor actor) {
        return run("retire", actor, changes -> ops.retire(keys, reason, changes));
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
            guard.run();
            ChangeLog changes = new ChangeLog();
            T result = work.apply(changes);
            em.flush();
            changes.afterFlush.forEach(Runnable::run);
            recorder.record(changes, actor);
            LifecycleMetrics.transition(operation, changes.actual.size());
            return result;
        }));
    }

    private static void throwIfFailed(ActualLrpKey key, Outcome outcome) {
        switch (outcome.kind()) {
            case NOT_FOUND -> throw new ActualLrpNotFoundException(key);
            case REJECTED -> throw new IllegalTransitionException(key, outcome.message());
            default -> {
            }
        }
    }
}
