package io.drover.model.lrp;

import io.drover.model.messaging.LifecycleEvent;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The only write path to {@code desired_lrps}: desire, update (scale), redefine (a deployment) and remove, each in one
 * transaction together with the actual LRPs it creates or retires and the events and auction request it causes. Every
 * write is a plain JDBC statement ({@link DesiredLrpStore}) whose compare-and-swap is the row's epoch and version.
 */
public class DesiredLrpLifecycle {

    /** A PUT without If-Match retries its compare-and-swap this many times in all before answering 409. */
    private static final int UNCONDITIONAL_ATTEMPTS = 2;

    private final TransactionTemplate tx;
    private final ActualLrpOperations actuals;
    private final LifecycleRecorder recorder;
    private final Clock clock;
    private final Supplier<UUID> ids;
    private final OptimisticRetry retry;
    private final DefinitionHistory history;
    private final DesiredLrpStore rows;
    private final Runnable guard;

    DesiredLrpLifecycle(TransactionTemplate tx, ActualLrpOperations actuals, LifecycleRecorder recorder, Clock clock,
            Supplier<UUID> ids, OptimisticRetry retry, DefinitionHistory history, DesiredLrpStore rows) {
        this(tx, actuals, recorder, clock, ids, retry, history, rows, () -> {
        });
    }

    private DesiredLrpLifecycle(TransactionTemplate tx, ActualLrpOperations actuals, LifecycleRecorder recorder,
            Clock clock, Supplier<UUID> ids, OptimisticRetry retry, DefinitionHistory history, DesiredLrpStore rows,
            Runnable guard) {
        this.tx = tx;
        this.actuals = actuals;
        this.recorder = recorder;
        this.clock = clock;
        this.ids = ids;
        this.retry = retry;
        this.history = history;
        this.rows = rows;
        this.guard = guard;
    }

    /**
     * This lifecycle with {@code guard} run last inside every transaction, just before it commits (a leader's fence,
     * as {@link ActualLrpLifecycle#guardedBy}): a guard that throws rolls the write back.
     */
    public DesiredLrpLifecycle guardedBy(Runnable guard) {
        return new DesiredLrpLifecycle(tx, actuals, recorder, clock, ids, retry, history, rows, guard);
    }

    /**
     * Creates the desired LRP, its UNCLAIMED instances and one auction request for all of them. Two concurrent desires
     * of one process_guid: the second waits on the primary key until the first commits, then finds it taken.
     */
    public DesiredLrpSnapshot desire(DesiredLrpDefinition definition, Actor actor) {
        Desired answer = desireAll(List.of(definition), actor).get(0);
        if (answer.refusal() != null) {
            throw answer.refusal();
        }
        return answer.lrp();
    }

    /**
     * Many desires in one transaction (a receptor's group commit of its concurrent requests), each decided as it would
     * be alone: the answers, in order, each the created LRP or the refusal its own call would have thrown (a
     * process_guid taken, also by an earlier desire of the same batch). A failure of the transaction itself (the
     * database) throws for all of them.
     */
    public List<Desired> desireAll(List<DesiredLrpDefinition> definitions, Actor actor) {
        return retry.run("desire", () -> desireOnce(definitions, actor));
    }

    /** One answer of {@link #desireAll}: the created LRP, or the refusal its own call would throw. */
    public record Desired(DesiredLrpSnapshot lrp, RuntimeException refusal) {
    }

    private List<Desired> desireOnce(List<DesiredLrpDefinition> definitions, Actor actor) {
        return tx.execute(status -> {
            ChangeLog changes = new ChangeLog();
            actuals.preload(definitions.stream().flatMap(d -> keys(d.processGuid(), 0, d.instances()).stream())
                    .distinct().toList(), changes); // before any write
            // A guid with a row is taken, also one whose delete is in flight: inserting it would wait for that delete
            // after an earlier row of the batch gave this transaction its id, and the stream would order this creation
            // before that removal (docs/architecture.md, per-instance order).
            Set<String> taken = rows.taken(definitions.stream().map(DesiredLrpDefinition::processGuid).toList());
            Instant now = clock.instant();
            List<DesiredLrpSnapshot> lrps = definitions.stream()
                    .map(d -> DesiredLrpSnapshot.create(d, ids.get(), now)).toList();
            changes.tookItsId = true;
            Set<DesiredLrpSnapshot> inserted = rows.insertAll(lrps.stream()
                    .filter(l -> !taken.contains(l.definition().processGuid())).toList());
            List<Desired> answers = new ArrayList<>(lrps.size());
            for (DesiredLrpSnapshot lrp : lrps) {
                DesiredLrpDefinition definition = lrp.definition();
                if (!inserted.contains(lrp)) {
                    answers.add(new Desired(null, new DesiredLrpAlreadyExistsException(definition.processGuid())));
                    continue;
                }
                changes.desired(LifecycleEvent.DESIRED_LRP_CREATED, null, lrp, "desired");
                actuals.createUnclaimed(definition.processGuid(), definition.domain(),
                        indices(0, definition.instances()), "desired", lrp.definitionVersion(), changes);
                answers.add(new Desired(lrp, null));
            }
            recorder.write(changes, actor);
            guard.run();
            return answers;
        });
    }

    /**
     * Applies an update as one compare-and-swap on the version. {@code ifMatch} holds the modification tags the caller
     * made its change against ({@code If-Match}, {@code modification_tag}); when there are any, the row this
     * transaction reads must carry one of them, epoch and index: a tag of a deleted LRP names an incarnation that is
     * gone, even when the new one has reached the same index. Empty: unconditional. Scaling up creates the new
     * indices; scaling down retires the extra ones.
     *
     * <p>Two kinds of lost race, told apart. The desired row changed meanwhile (another update won): with a tag that is
     * the caller's stale tag, without one the swap is tried again once, and a second loss is the caller's 409. An
     * instance changed meanwhile (a cell claimed, started or crashed one the scale-down retires, or the converger
     * created an index the scale-up creates): no other writer of this LRP won, so the whole transaction is retried with
     * a fresh read like every lifecycle write, within {@link OptimisticRetry}'s bound.
     */
    public DesiredLrpSnapshot update(String processGuid, DesiredLrpUpdate update, List<ModificationTag> ifMatch,
            Actor actor) {
        return update(processGuid, update, ifMatch, "updated", actor);
    }

    /**
     * {@link #update(String, DesiredLrpUpdate, List, Actor)} with the reason its audit row and instances' changes give
     * (the autoscaler names the figures that decided a scale).
     */
    public DesiredLrpSnapshot update(String processGuid, DesiredLrpUpdate update, List<ModificationTag> ifMatch,
            String reason, Actor actor) {
        int attempts = ifMatch.isEmpty() ? UNCONDITIONAL_ATTEMPTS : 1;
        for (int attempt = 1; ; attempt++) {
            try {
                return retry.run("update-desired", () -> updateOnce(processGuid, update, ifMatch, reason, actor));
            } catch (SwapLost e) {
                if (attempt >= attempts) {
                    throw new StaleModificationTagException(processGuid);
                }
            }
        }
    }

    private DesiredLrpSnapshot updateOnce(String processGuid, DesiredLrpUpdate update, List<ModificationTag> ifMatch,
            String reason, Actor actor) {
        return tx.execute(status -> {
            DesiredLrpSnapshot before = rows.find(processGuid)
                    .orElseThrow(() -> new DesiredLrpNotFoundException(processGuid));
            if (!ifMatch.isEmpty() && !ifMatch.contains(before.modificationTag())) {
                throw new StaleModificationTagException(processGuid);
            }
            DesiredLrpSnapshot after = before.updatedBy(update, clock.instant()).orElse(null);
            if (after == null) {
                return before;
            }
            int previous = before.definition().instances();
            int instances = after.definition().instances();
            ChangeLog changes = new ChangeLog();
            // the slots it changes, read before its first write (docs/architecture.md, per-instance order)
            actuals.preload(keys(processGuid, Math.min(previous, instances), Math.max(previous, instances)), changes);
            changes.tookItsId = true;
            if (!rows.update(after)) {
                throw new SwapLost();
            }
            // A slot a repair created meanwhile under its lock on the desired row (which this update waited for, and
            // which no other repair takes ahead of this waiting update) committed before this transaction took its id:
            // read again what was empty.
            actuals.forgetEmpty(changes);
            changes.desired(LifecycleEvent.DESIRED_LRP_CHANGED, before, after, reason);
            if (instances > previous) {
                actuals.fillsAfterAWait(processGuid, indices(previous, instances), changes); // the swap may have waited
                actuals.createUnclaimed(processGuid, after.definition().domain(), indices(previous, instances),
                        "scaled up", after.definitionVersion(), changes);
            } else if (instances < previous) {
                actuals.retire(keys(processGuid, instances, previous), "scaled down", changes);
            }
            recorder.write(changes, actor);
            guard.run(); // last: see guardedBy
            return after;
        });
    }

    /**
     * Makes {@code deployable} the LRP's definition under {@code version} (a deployment, SPEC 14), in the caller's
     * transaction when there is one: the deployment that asks for it commits with it. {@code current} is the LRP as
     * the caller read it and decided on, and the write is a compare-and-swap on its epoch and version: when the LRP
     * changed since (scaled, deleted, redefined by another deployment), nothing is written and an {@link
     * OptimisticLockingFailureException} asks the caller to run again on a fresh read, from outside its transaction
     * ({@link OptimisticRetry}). The version is recorded in the definition history (the last 10 are kept). Nothing
     * changes when it is the current version already.
     */
    public DesiredLrpSnapshot redefine(DesiredLrpSnapshot current, Deployable deployable, int version, String reason,
            Actor actor) {
        DesiredLrpSnapshot after = current.redefinedBy(deployable, version, clock.instant()).orElse(null);
        if (after == null) {
            return current;
        }
        String processGuid = current.definition().processGuid();
        return tx.execute(status -> {
            if (!rows.redefine(after)) {
                throw new OptimisticLockingFailureException("desired LRP " + processGuid + " changed since "
                        + current.modificationTag() + " was read");
            }
            history.recordCurrent(processGuid, after.updatedAt());
            ChangeLog changes = new ChangeLog();
            changes.desired(LifecycleEvent.DESIRED_LRP_CHANGED, current, after, reason);
            recorder.write(changes, actor);
            guard.run();
            return after;
        });
    }

    /** The desired LRP as it is now, read in the caller's transaction when there is one. */
    public Optional<DesiredLrpSnapshot> snapshot(String processGuid) {
        return tx.execute(status -> rows.find(processGuid));
    }

    /** The deployable part of definition {@code version} of this LRP, if the history still keeps it. */
    public Optional<Deployable> definitionAt(String processGuid, int version) {
        return history.deployable(processGuid, version);
    }

    /** The highest definition version this LRP has had that is still kept: a new one is numbered after it. */
    public int highestDefinitionVersion(String processGuid) {
        return history.highestVersion(processGuid);
    }

    /**
     * Deletes the desired LRP (one statement that returns the row it removed, for the event) and retires every instance
     * of it; retried when an instance changed meanwhile.
     */
    public void remove(String processGuid, Actor actor) {
        retry.run("remove-desired", () -> removeOnce(processGuid, actor));
    }

    private Void removeOnce(String processGuid, Actor actor) {
        return tx.execute(status -> {
            ChangeLog changes = new ChangeLog();
            actuals.preload(actuals.store().keysOf(processGuid), changes); // before any write: see updateOnce
            changes.tookItsId = true;
            DesiredLrpSnapshot before = rows.delete(processGuid)
                    .orElseThrow(() -> new DesiredLrpNotFoundException(processGuid));
            actuals.forgetEmpty(changes);
            // and the slots a repair created meanwhile, under its lock on the row this delete waited for
            List<ActualLrpKey> instances = new ArrayList<>(new LinkedHashSet<>(java.util.stream.Stream.concat(
                    changes.loaded.keySet().stream(), actuals.store().keysOf(processGuid).stream()).toList()));
            changes.desired(LifecycleEvent.DESIRED_LRP_REMOVED, before, null, "deleted");
            actuals.retire(instances, "desired LRP deleted", changes);
            recorder.write(changes, actor);
            guard.run();
            return null;
        });
    }

    /**
     * The desired row was no longer at the version this update read: another update of the LRP won. Not one of the
     * lost races {@link OptimisticRetry} retries, so that {@link #update} counts it against its own budget.
     */
    private static final class SwapLost extends RuntimeException {
        SwapLost() {
            super(null, null, false, false);
        }
    }

    private static List<Integer> indices(int from, int to) {
        return IntStream.range(from, to).boxed().toList();
    }

    private static List<ActualLrpKey> keys(String processGuid, int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> ActualLrpKey.of(processGuid, i)).toList();
    }
}
