package io.drover.model.deployment;

import io.drover.model.lrp.Actor;
import io.drover.model.lrp.Deployable;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.DesiredLrpNotFoundException;
import io.drover.model.lrp.DesiredLrpSnapshot;
import io.drover.model.lrp.OptimisticRetry;
import io.drover.model.messaging.AuditLog;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.Outbox;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The only write path to {@code deployments} (SPEC 14). Each change is one transaction with the desired LRP's new
 * definition when it makes one current (a start, a rollback, an automatic revert) and with its {@code
 * deployment_changed} event: an audit row in {@code lrp_events} (entity {@code deployment}) that the relay publishes on
 * the lifecycle topic, naming who did it. A new deployment supersedes the LRP's active one (cancelled).
 */
public class DeploymentLifecycle {

    public static final String DEPLOYMENT_CHANGED = "deployment_changed";

    private final TransactionTemplate tx;
    private final DeploymentStore store;
    private final DesiredLrpLifecycle desired;
    private final JdbcTemplate jdbc;
    private final Outbox outbox;
    private final AuditLog audit;
    private final Clock clock;
    private final Supplier<UUID> ids;
    private final OptimisticRetry retry;
    private final Runnable guard;

    /** @param retry how often a user's verb is tried again when the deployer moved the deployment on meanwhile */
    public DeploymentLifecycle(TransactionTemplate tx, JdbcTemplate jdbc, DesiredLrpLifecycle desired, Outbox outbox,
            Clock clock, Supplier<UUID> ids, OptimisticRetry retry) {
        this(tx, jdbc, desired, outbox, clock, ids, retry, () -> {
        });
    }

    private DeploymentLifecycle(TransactionTemplate tx, JdbcTemplate jdbc, DesiredLrpLifecycle desired, Outbox outbox,
            Clock clock, Supplier<UUID> ids, OptimisticRetry retry, Runnable guard) {
        this.tx = tx;
        this.store = new DeploymentStore(jdbc);
        this.desired = desired;
        this.jdbc = jdbc;
        this.outbox = outbox;
        this.audit = new AuditLog(jdbc, outbox);
        this.clock = clock;
        this.ids = ids;
        this.retry = retry;
        this.guard = guard;
    }

    /** This lifecycle with {@code guard} run last in every transaction, before it commits (the deployer's leader fence). */
    public DeploymentLifecycle guardedBy(Runnable guard) {
        return new DeploymentLifecycle(tx, jdbc, desired, outbox, clock, ids, retry, guard);
    }

    /**
     * Starts a deployment to a new definition version: {@code change} turns the current definition into the new
     * deployable part. Supersedes the active deployment, if any. The new definition is a compare-and-swap on the
     * desired LRP as this transaction read it: when the LRP changed meanwhile (a scale, another deployment), the start
     * runs again on a fresh read (and a delete meanwhile is the 404 it is); losing every attempt is a
     * {@link io.drover.model.lrp.LifecycleConflictException}.
     */
    public Deployment start(String processGuid, Function<DesiredLrpSnapshot, Deployable> change, Strategy strategy,
            String by, Actor actor) {
        return retry.run("deployment-start", () -> run(() -> {
            DesiredLrpSnapshot current = current(processGuid);
            // after the current version too: read apart from it, the history of an LRP deleted meanwhile is empty, and
            // a "new" version equal to the current one would skip the swap that notices the delete
            int version = Math.max(desired.highestDefinitionVersion(processGuid), current.definitionVersion()) + 1;
            return begin(current, change.apply(current), version, strategy, null, "started by " + by, by, actor);
        }));
    }

    /**
     * Starts a deployment back to a definition version the history keeps (SPEC 14 {@code rollback_to}); a lost race
     * runs again as {@link #start} does.
     */
    public Deployment rollback(String processGuid, int toVersion, Strategy strategy, String by, Actor actor) {
        return retry.run("deployment-rollback", () -> run(() -> {
            DesiredLrpSnapshot current = current(processGuid);
            if (current.definitionVersion() == toVersion) {
                throw new IllegalDeploymentException(processGuid + " runs definition version " + toVersion
                        + " already");
            }
            Deployable target = desired.definitionAt(processGuid, toVersion).orElseThrow(() ->
                    new IllegalDeploymentException("definition version " + toVersion + " of " + processGuid
                            + " is not kept (the last 10 are)"));
            return begin(current, target, toVersion, strategy, null, "rollback by " + by, by, actor);
        }));
    }

    /** Holds a running deployment: nothing new starts; {@code by} is who asked (the audit names them). */
    public Deployment pause(String processGuid, UUID id, String by, Actor actor) {
        return change("pause", processGuid, id, "paused by " + by, actor, d -> {
            require(d, d.state().isActive(), "pause");
            return d.moved(DeploymentState.PAUSED, null, clock.instant());
        });
    }

    /** Resumes a paused deployment; the progress deadline counts from now. */
    public Deployment resume(String processGuid, UUID id, String by, Actor actor) {
        return change("resume", processGuid, id, "resumed by " + by, actor, d -> {
            require(d, d.state() == DeploymentState.PAUSED || d.state() == DeploymentState.RUNNING, "resume");
            Instant now = clock.instant();
            return d.state() == DeploymentState.RUNNING ? d
                    : d.moved(DeploymentState.RUNNING, null, now).progressed(now, now);
        });
    }

    /** Promotes a canary deployment: it replaces the remaining instances. */
    public Deployment promote(String processGuid, UUID id, String by, Actor actor) {
        return change("promote", processGuid, id, "promoted by " + by, actor, d -> {
            require(d, d.state().isActive() && d.canary() > 0, "promote");
            return d.promote(clock.instant());
        });
    }

    /** Stops the rollout where it is: instances keep the version they run (a rollback goes back). */
    public Deployment cancel(String processGuid, UUID id, String by, Actor actor) {
        return change("cancel", processGuid, id, "cancelled by " + by, actor, d -> {
            require(d, d.state().isActive(), "cancel");
            return d.moved(DeploymentState.CANCELLED, null, clock.instant());
        });
    }

    /** The deployer's verdicts: progress noted, succeeded, waiting for promotion. */
    public Deployment decided(Deployment d, Step step, Actor actor) {
        return run(() -> {
            Deployment stored = store.find(d.id()).filter(s -> s.version() == d.version() && s.state().isActive())
                    .orElseThrow(() -> new IllegalDeploymentException("deployment " + d.id() + " changed meanwhile"));
            Instant now = clock.instant();
            return switch (step.verdict()) {
                case SUCCEEDED -> succeeded(stored, step, now, actor);
                case WAITING_FOR_PROMOTION -> stored.state() == DeploymentState.WAITING_FOR_PROMOTION ? stored
                        : record(stored, stored.moved(DeploymentState.WAITING_FOR_PROMOTION, null, now), step.reason(),
                                actor);
                case FAILED -> fail(stored, step.reason(), actor);
                case CONTINUE -> step.progressAt().isAfter(stored.progressAt())
                        ? store.update(stored.progressed(step.progressAt(), now)) : stored;
            };
        });
    }

    /**
     * A deployment whose instances are all updated. Its version is proven stable only when at least one instance ran it
     * healthy: at no instances a deployment succeeds at once (as a Kubernetes Deployment of zero replicas completes),
     * and an automatic revert must not go back to a version nothing ever ran (Nomad marks a job version stable only
     * once its allocations were healthy).
     */
    private Deployment succeeded(Deployment stored, Step step, Instant now, Actor actor) {
        Deployment done = record(stored, stored.moved(DeploymentState.SUCCESSFUL, null, now).progressed(
                step.progressAt(), now), step.reason(), actor);
        if (step.counts().updated() > 0) {
            store.proven(done.id());
        }
        return done;
    }

    /**
     * A deployment that failed its deadline: with {@code auto_revert} (and not itself a revert), the LRP goes back to
     * its last stable version (the target of its newest SUCCESSFUL deployment that an instance proved, or the version
     * it had before any), as
     * Nomad reverts to the last stable job, not to the failed deployment's {@code from_version}: that may be a broken
     * version a newer deployment superseded before it ever ran (the truth checker's anomaly C: two broken deployments in
     * a row reverted to the first one, and the LRP ran nothing for the revert's whole deadline). FAILED when there is
     * no such version to go back to, or it is the one that failed.
     */
    private Deployment fail(Deployment d, String reason, Actor actor) {
        Instant now = clock.instant();
        java.util.OptionalInt stable = d.autoRevert() && d.reverts() == null ? store.stableVersion(d.processGuid())
                : java.util.OptionalInt.empty();
        Optional<Deployable> previous = stable.isPresent() && stable.getAsInt() != d.toVersion()
                ? desired.definitionAt(d.processGuid(), stable.getAsInt()) : Optional.empty();
        if (previous.isEmpty()) {
            return record(d, d.moved(DeploymentState.FAILED, reason, now), reason, actor);
        }
        Deployment reverted = record(d, d.moved(DeploymentState.REVERTED, reason, now), "reverted: " + reason, actor);
        Strategy back = d.strategy().revert();
        begin(current(d.processGuid()), previous.get(), stable.getAsInt(), back, d.id(), "automatic revert of "
                + d.id() + " to stable version " + stable.getAsInt(), "auto-revert", actor);
        return reverted;
    }

    /** The active deployment of every LRP. */
    public List<Deployment> active() {
        return store.active();
    }

    /** The LRP's latest {@code limit} deployments, newest first. */
    public List<Deployment> of(String processGuid, int limit) {
        return store.of(processGuid, limit);
    }

    public Deployment find(String processGuid, UUID id) {
        return store.find(id).filter(d -> d.processGuid().equals(processGuid))
                .orElseThrow(() -> new DeploymentNotFoundException(processGuid, id));
    }

    private Deployment begin(DesiredLrpSnapshot current, Deployable target, int version, Strategy strategy,
            UUID reverts, String reason, String by, Actor actor) {
        String guid = current.definition().processGuid();
        Instant now = clock.instant();
        Deployment d = Deployment.create(ids.get(), guid, current.definitionVersion(), version, strategy, reverts, by,
                now);
        store.activeForUpdate(guid).ifPresent(old -> record(old, old.moved(DeploymentState.CANCELLED,
                "superseded by " + d.id(), now), "superseded by " + d.id(), actor));
        desired.redefine(current, target, version, "deployment " + d.id(), actor);
        store.insert(d);
        Deployment stored = store.find(d.id()).orElseThrow(); // as stored: timestamps in PostgreSQL's microseconds
        audit(null, stored, reason, actor);
        return stored;
    }

    /**
     * A user's verb on the deployment as it is now. The deployer notes progress on a running deployment every pass;
     * when it did so between this read and this write, the verb is applied again to a fresh read (and its rule checked
     * again) rather than answered as a conflict: the user lost no race to another user.
     */
    private Deployment change(String name, String processGuid, UUID id, String what, Actor actor,
            Function<Deployment, Deployment> verb) {
        return retry.run("deployment-" + name, () -> run(() -> {
            Deployment d = find(processGuid, id);
            Deployment after = verb.apply(d);
            return after == d ? d : record(d, after, what, actor);
        }));
    }

    private Deployment record(Deployment before, Deployment after, String reason, Actor actor) {
        Deployment written = store.update(after);
        audit(before, written, reason, actor);
        return written;
    }

    private void audit(Deployment before, Deployment after, String reason, Actor actor) {
        Instant now = clock.instant();
        UUID eventId = ids.get();
        audit.append(List.of(new AuditLog.Entry("deployment", after.processGuid(), null, DEPLOYMENT_CHANGED,
                before == null ? null : before.state().name(), after.state().name(),
                reason + " (deployment " + after.id() + ")", after.version(), actor.service(), null, eventId,
                LifecycleEvent.encode(eventId, DEPLOYMENT_CHANGED, before, after, now))), now);
    }

    private DesiredLrpSnapshot current(String processGuid) {
        return desired.snapshot(processGuid).orElseThrow(() -> new DesiredLrpNotFoundException(processGuid));
    }

    private static void require(Deployment d, boolean allowed, String what) {
        if (!allowed) {
            throw new IllegalDeploymentException("cannot " + what + " deployment " + d.id() + ": it is " + d.state()
                    + (d.canary() == 0 && what.equals("promote") ? " and has no canary" : ""));
        }
    }

    private <T> T run(Supplier<T> work) {
        return tx.execute(status -> {
            T result = work.get();
            guard.run(); // last, before the commit: its row lock takes the transaction's id (as ActualLrpLifecycle's)
            return result;
        });
    }
}
