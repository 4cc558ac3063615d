package io.drover.model.lrp;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The lifecycle operations of SPEC 3.3 as they run inside one transaction, each the same loop: load the slots the
 * operation names (record and twin, one query), call the {@link InstanceSlot} verb on each, and leave what changed in
 * the {@link ChangeLog}. The slots hold every rule; this class only knows which verb an operation is and what each
 * verb needs read first. {@link ActualLrpLifecycle} and {@link DesiredLrpLifecycle} wrap these in transactions, write
 * the changes and retry; nothing else calls them.
 */
class ActualLrpOperations {

    private final ActualLrpStore store;
    private final Clock clock;
    private final Supplier<UUID> ids;
    private final CrashRestartPolicy policy;
    private static final InstanceSlot.DesiredVersion FIRST = new InstanceSlot.DesiredVersion(null, 1);

    ActualLrpOperations(ActualLrpStore store, Clock clock, Supplier<UUID> ids, CrashRestartPolicy policy) {
        this.store = store;
        this.clock = clock;
        this.ids = ids;
        this.policy = policy;
    }

    CrashRestartPolicy policy() {
        return policy;
    }

    ActualLrpStore store() {
        return store;
    }

    /**
     * Reads these slots now, for the operations this transaction calls later: a transaction that writes something else
     * first (a desired LRP) reads the slots it will change before its first write, as every lifecycle transaction must
     * (docs/architecture.md, "Keeping per-instance order in the event stream").
     */
    void preload(Collection<ActualLrpKey> keys, ChangeLog changes) {
        slots(keys, changes);
    }

    /**
     * These slots, read before a lock this transaction may have waited for with its id taken, are checked once its new
     * records are in ({@link ActualLrpStore#requireNoYoungerEvents}): a younger transaction that filled and emptied one
     * meanwhile had committed by then, since the insert waits for a delete in flight on the slot's key.
     */
    void fillsAfterAWait(String processGuid, Collection<Integer> indices, ChangeLog changes) {
        indices.forEach(i -> changes.filledAfterAWait.add(ActualLrpKey.of(processGuid, i)));
    }

    /** Forgets the slots this transaction read empty, so that the next operation reads them again. */
    void forgetEmpty(ChangeLog changes) {
        changes.loaded.values().removeIf(InstanceSlot::isEmpty);
    }

    /**
     * Creates the indices that have no record as UNCLAIMED at {@code currentVersion} (read from the desired LRP when
     * null) and asks for one auction for all of them; returns the created indices.
     */
    List<Integer> createUnclaimed(String processGuid, String domain, Collection<Integer> indices, String reason,
            Integer currentVersion, ChangeLog changes) {
        List<ActualLrpKey> keys = new TreeSet<>(indices).stream().map(i -> ActualLrpKey.of(processGuid, i)).toList();
        Slots slots = slots(keys, changes);
        int version = currentVersion != null ? currentVersion
                : store.desiredVersions(List.of(processGuid)).getOrDefault(processGuid, FIRST).version();
        List<Integer> created = new ArrayList<>();
        keys.forEach(k -> {
            if (slots.get(k).create(domain, version, reason, null)) {
                created.add(k.index());
            }
        });
        return created;
    }

    /**
     * Converger rule 1 at write time: creates only the indices still below the desired instance count, read under a
     * lock on the desired row ({@link ActualLrpStore#desiredLocked}), so a repair planned before a scale-down or a
     * delete neither brings back what the user just took away nor slips in beside a delete that has not committed yet.
     */
    List<Integer> createMissing(String processGuid, String domain, Collection<Integer> indices, String reason,
            ChangeLog changes) {
        preload(indices.stream().map(i -> ActualLrpKey.of(processGuid, i)).toList(), changes); // before the lock
        ActualLrpStore.Desired desired = store.desiredLocked(List.of(processGuid)).get(processGuid);
        changes.tookItsId = true;
        if (desired == null) {
            return List.of();
        }
        List<Integer> wanted = indices.stream().filter(i -> i < desired.instances()).toList();
        fillsAfterAWait(processGuid, wanted, changes); // the lock may have waited, with this transaction's id taken
        return createUnclaimed(processGuid, domain, wanted, reason, desired.current().version(), changes);
    }

    /** Remembers each placement on its record and sends each cell one auction result (with the LRPs' lives). */
    Map<ActualLrpKey, Outcome> place(UUID auctionId, Map<ActualLrpKey, String> cellByKey, ChangeLog changes) {
        changes.auctionId = auctionId;
        Map<String, InstanceSlot.DesiredVersion> lives = store.desiredVersions(guids(cellByKey.keySet()));
        return each(cellByKey, changes, (slot, key, cell) -> slot.place(cell,
                lives.containsKey(key.processGuid()) ? lives.get(key.processGuid()).lrpEpoch() : null));
    }

    /** {@code placedOn}: the cell turning its placements away, or null when no cell could be chosen. */
    Map<ActualLrpKey, Outcome> failPlacement(Map<ActualLrpKey, String> errorByKey, String placedOn,
            ChangeLog changes) {
        return each(errorByKey, changes, (slot, key, error) -> slot.failPlacement(error, placedOn));
    }

    Map<ActualLrpKey, Outcome> claim(Map<ActualLrpKey, ClaimRequest> claims, Actor actor, ChangeLog changes) {
        return each(claims, changes, (slot, key, c) -> slot.claim(c.owner(), c.placement(), actor));
    }

    /**
     * Containers up and healthy. A container that did not claim its record is checked against the desired LRP's life
     * and current version, read only for those.
     */
    Map<ActualLrpKey, Outcome> start(Collection<StartedInstance> requests, Actor actor, ChangeLog changes) {
        Map<ActualLrpKey, StartedInstance> byKey = new LinkedHashMap<>();
        requests.forEach(r -> byKey.put(r.key(), r));
        Slots slots = slots(byKey.keySet(), changes);
        Map<String, InstanceSlot.DesiredVersion> current = store.desiredVersions(guids(byKey.values().stream()
                .filter(r -> !slots.get(r.key()).ownedBy(r.owner())).map(StartedInstance::key).toList()));
        return each(byKey, slots, (slot, key, r) -> slot.start(r, current.get(key.processGuid()), actor));
    }

    Map<ActualLrpKey, Outcome> crash(Map<ActualLrpKey, CrashReport> crashes, Actor actor, ChangeLog changes) {
        return each(crashes, changes, (slot, key, c) -> slot.crash(c, actor));
    }

    /** Deletes the row this owner holds, the record or the twin; a slot without one is a no-op. */
    Map<ActualLrpKey, Outcome> remove(Map<ActualLrpKey, InstanceOwner> owners, String reason, Actor actor,
            ChangeLog changes) {
        return each(owners, changes, (slot, key, owner) -> slot.remove(owner, reason, actor));
    }

    Map<ActualLrpKey, Outcome> evacuate(Map<ActualLrpKey, InstanceOwner> owners, Actor actor, ChangeLog changes) {
        return each(owners, changes, (slot, key, owner) -> slot.evacuate(owner, actor));
    }

    /** Removes up to {@code limit} twins of cells that are gone: nothing serves from them any more. */
    Map<ActualLrpKey, Outcome> removeTwinsOfLostCells(int limit, String reason, ChangeLog changes) {
        return each(keyed(store.twinsOnLostCells(clock.instant(), limit)), changes,
                (slot, key, ignored) -> slot.removeTwinOfLostCell(reason));
    }

    /** Retires up to {@code limit} twins whose slot has no record and is not desired (nobody else reaps them). */
    Map<ActualLrpKey, Outcome> retireOrphanTwins(int limit, String reason, ChangeLog changes) {
        List<ActualLrpKey> keys = store.orphanTwins(clock.instant(), limit);
        Slots slots = slots(keys, changes); // read before the lock, which takes the transaction's id
        Map<String, ActualLrpStore.Desired> desired = store.desiredLocked(guids(keys));
        changes.tookItsId = true;
        Set<String> live = slots.liveCells(store, clock.instant());
        return each(keyed(keys), slots, (slot, key, ignored) -> !ActualLrpStore.Desired.wants(desired, key)
                && slot.retireOrphanTwin(live::contains, reason));
    }

    /** Unowned rows (and those of cells that are gone) are deleted; live owners are asked to stop, twins included. */
    Map<ActualLrpKey, Outcome> retire(Collection<ActualLrpKey> keys, String reason, ChangeLog changes) {
        Slots slots = slots(keys, changes);
        Set<String> live = slots.liveCells(store, clock.instant());
        return each(keyed(keys), slots, (slot, key, ignored) -> slot.retire(live::contains, reason));
    }

    /**
     * A deployment moves these slots to {@code version}, each only while its record is at the row version seen and its
     * deployment still RUNNING (read under a share lock: a pause or a cancel waits for this transaction, or this one
     * reads what it wrote).
     */
    Map<ActualLrpKey, Outcome> roll(Map<ActualLrpKey, RollRequest> requests, int version, boolean keepServing,
            String reason, ChangeLog changes) {
        Slots slots = slots(requests.keySet(), changes); // read before the share lock, which takes the transaction's id
        changes.tookItsId = true; // by the share lock just below
        Set<UUID> running = store.runningDeployments(requests.values().stream().map(RollRequest::deploymentId)
                .filter(java.util.Objects::nonNull).distinct().toList());
        return each(requests, slots, (slot, key, r) -> slot.roll(version, keepServing, r,
                r.deploymentId() == null || running.contains(r.deploymentId()), reason));
    }

    /** Asks the twins a deployment kept to stop, each only while its slot's record RUNs {@code version}. */
    Map<ActualLrpKey, Outcome> releaseDeploymentTwins(Map<ActualLrpKey, Integer> versions, String reason,
            ChangeLog changes) {
        return each(versions, changes, (slot, key, version) -> slot.releaseDeploymentTwin(version, reason));
    }

    Map<ActualLrpKey, Outcome> unclaim(Collection<ActualLrpKey> keys, Set<ActualLrpState> expected, String reason,
            ChangeLog changes) {
        return each(keyed(keys), changes, (slot, key, ignored) -> slot.unclaim(expected, reason));
    }

    /** The loop: one load for every slot, then the verb per slot; a forbidden or impossible change is an outcome. */
    private <T> Map<ActualLrpKey, Outcome> each(Map<ActualLrpKey, T> requests, ChangeLog changes, Verb<T> verb) {
        return each(requests, slots(requests.keySet(), changes), verb);
    }

    private <T> Map<ActualLrpKey, Outcome> each(Map<ActualLrpKey, T> requests, Slots slots, Verb<T> verb) {
        Map<ActualLrpKey, Outcome> outcomes = new LinkedHashMap<>();
        requests.forEach((key, request) -> {
            try {
                outcomes.put(key, verb.apply(slots.get(key), key, request) ? Outcome.CHANGED : Outcome.NO_OP);
            } catch (IllegalTransitionException e) {
                outcomes.put(key, Outcome.rejected(e.getMessage()));
            } catch (ActualLrpNotFoundException e) {
                outcomes.put(key, Outcome.NOT_FOUND);
            }
        });
        return outcomes;
    }

    private Slots slots(Collection<ActualLrpKey> keys, ChangeLog changes) {
        return Slots.load(store, keys, clock.instant(), policy, ids, changes);
    }

    private static List<String> guids(Collection<ActualLrpKey> keys) {
        return keys.stream().map(ActualLrpKey::processGuid).distinct().toList();
    }

    private static Map<ActualLrpKey, Boolean> keyed(Collection<ActualLrpKey> keys) {
        Map<ActualLrpKey, Boolean> requests = new LinkedHashMap<>();
        keys.forEach(k -> requests.put(k, true));
        return requests;
    }

    @FunctionalInterface
    private interface Verb<T> {
        boolean apply(InstanceSlot slot, ActualLrpKey key, T request);
    }
}
