package io.drover.model.lrp;

import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.LrpStartRequested;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.messaging.OutboxMessage;
import io.drover.model.messaging.Topics;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The lifecycle operations of SPEC 3.3 as they run inside one transaction, each the same loop: load the records, apply
 * the {@link ActualLrp} verb to each, note the change and the commands it causes in the {@link ChangeLog}. The verbs
 * hold every rule; this class only knows which verb an operation is and what it announces. {@link ActualLrpLifecycle}
 * and {@link DesiredLrpLifecycle} wrap these in transactions, write the records and retry; nothing else calls them.
 */
class ActualLrpOperations {

    private final ActualLrpStore store;
    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final Supplier<UUID> ids;
    private final CrashRestartPolicy policy;

    ActualLrpOperations(ActualLrpStore store, JdbcTemplate jdbc, Clock clock, Supplier<UUID> ids,
            CrashRestartPolicy policy) {
        this.store = store;
        this.jdbc = jdbc;
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

    /** Creates the missing indices as UNCLAIMED and asks for one auction for all of them; returns what it created. */
    List<Integer> createUnclaimed(String processGuid, String domain, Collection<Integer> indices, String reason,
            ChangeLog changes) {
        return createUnclaimed(processGuid, domain, indices, reason,
                () -> store.definitionVersions(List.of(processGuid)).getOrDefault(processGuid, 1), changes);
    }

    /**
     * The same, at a definition version the caller knows is current (it holds the desired LRP in its transaction): a
     * desire or a scale-up does not read it again.
     */
    List<Integer> createUnclaimed(String processGuid, String domain, Collection<Integer> indices, String reason,
            int currentVersion, ChangeLog changes) {
        return createUnclaimed(processGuid, domain, indices, reason, () -> currentVersion, changes);
    }

    private List<Integer> createUnclaimed(String processGuid, String domain, Collection<Integer> indices,
            String reason, IntSupplier currentVersion, ChangeLog changes) {
        Set<Integer> existing = new HashSet<>(store.existingIndices(processGuid, indices));
        changes.inserts.stream().filter(l -> l.processGuid().equals(processGuid)).forEach(l -> existing.add(l.index()));
        Instant now = clock.instant();
        List<Integer> created = new ArrayList<>();
        int version = -1;
        for (int index : new TreeSet<>(indices)) {
            if (!existing.contains(index)) {
                version = version < 0 ? currentVersion.getAsInt() : version;
                changes.actualCreated(ActualLrp.unclaimed(ActualLrpKey.of(processGuid, index), domain, ids.get(), now,
                        version), reason, null);
                created.add(index);
            }
        }
        requestStart(processGuid, domain, created, reason, changes);
        return created;
    }

    /**
     * Converger rule 1 at write time: creates only the indices still below the desired instance count as it is now, so
     * a repair planned before a scale-down or a delete does not bring back what the user just took away.
     */
    List<Integer> createMissing(String processGuid, String domain, Collection<Integer> indices, String reason,
            ChangeLog changes) {
        List<Integer> desired = jdbc.queryForList("SELECT instances FROM desired_lrps WHERE process_guid = ?",
                Integer.class, processGuid);
        if (desired.isEmpty()) {
            return List.of();
        }
        int instances = desired.get(0);
        return createUnclaimed(processGuid, domain, indices.stream().filter(i -> i < instances).toList(), reason,
                changes);
    }

    /**
     * Remembers each placement on its record and sends each cell one auction result. A placement is not a change
     * clients see (the instance stays UNCLAIMED), so it is published only when it clears a placement error.
     */
    Map<ActualLrpKey, Outcome> place(UUID auctionId, Map<ActualLrpKey, String> cellByKey, ChangeLog changes) {
        Map<String, List<ActualLrp>> byCell = new TreeMap<>();
        Instant now = clock.instant();
        Map<ActualLrpKey, Outcome> outcomes = each(cellByKey, Outcome.NOT_FOUND, (lrp, cell) -> {
            ActualLrpSnapshot before = lrp.placementError() == null ? null : lrp.snapshot(policy);
            if (!lrp.place(cell, now)) {
                return false;
            }
            if (before == null) {
                changes.actualWritten(lrp);
            } else {
                changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CHANGED, before, lrp, "placed on " + cell, null);
            }
            byCell.computeIfAbsent(cell, c -> new ArrayList<>()).add(lrp);
            return true;
        });
        changes.afterWrite(() -> byCell.forEach((cell, placed) -> changes.command(OutboxMessage.of(
                Topics.AUCTION_RESULTS, cell, new LrpsPlaced(ids.get(), cell, auctionId, placed.stream()
                        .map(l -> new LrpsPlaced.Placement(l.processGuid(), l.index(), l.epoch(), l.version(),
                                l.definitionVersion()))
                        .toList())))));
        return outcomes;
    }

    /** {@code placedOn}: the cell turning its placements away, or null when no cell could be chosen. */
    Map<ActualLrpKey, Outcome> failPlacement(Map<ActualLrpKey, String> errorByKey, String placedOn,
            ChangeLog changes) {
        Instant now = clock.instant();
        return each(errorByKey, Outcome.NOT_FOUND, (lrp, error) -> changed(lrp, LifecycleEvent.ACTUAL_LRP_CHANGED,
                error, null, changes, () -> lrp.failPlacement(error, placedOn, now)));
    }

    Map<ActualLrpKey, Outcome> claim(Map<ActualLrpKey, ClaimRequest> claims, Actor actor, ChangeLog changes) {
        Instant now = clock.instant();
        return each(claims, Outcome.NOT_FOUND, (lrp, c) -> changed(lrp, LifecycleEvent.ACTUAL_LRP_CHANGED,
                "claimed by " + c.owner().cellId(), actor.on(c.owner()), changes,
                () -> lrp.claim(c.owner(), c.placedEpoch(), now)));
    }

    /** Containers up and healthy; a running container with no record gets one (it is never killed for that). */
    Map<ActualLrpKey, Outcome> start(Collection<StartedInstance> requests, Actor actor, ChangeLog changes) {
        Map<ActualLrpKey, StartedInstance> byKey = new LinkedHashMap<>();
        requests.forEach(r -> byKey.put(r.key(), r));
        Instant now = clock.instant();
        Map<ActualLrpKey, ActualLrp> lrps = store.load(byKey.keySet());
        Map<ActualLrpKey, Outcome> outcomes = new LinkedHashMap<>();
        Map<String, Integer> versions = byKey.size() == lrps.size() ? Map.of() : store.definitionVersions(
                byKey.keySet().stream().filter(k -> !lrps.containsKey(k)).map(ActualLrpKey::processGuid).toList());
        byKey.forEach((key, r) -> {
            ActualLrp lrp = lrps.get(key);
            if (lrp == null) {
                changes.actualCreated(ActualLrp.running(key, r.domain(), ids.get(), r.owner(), r.netInfo(), now,
                        versions.getOrDefault(key.processGuid(), 1)), "running container had no record",
                        actor.on(r.owner()));
                outcomes.put(key, Outcome.CHANGED);
            } else {
                outcomes.put(key, apply(lrp, l -> changed(l, LifecycleEvent.ACTUAL_LRP_CHANGED,
                        "started on " + r.owner().cellId(), actor.on(r.owner()), changes,
                        () -> l.start(r.owner(), r.netInfo(), now))));
            }
        });
        return outcomes;
    }

    /**
     * The owners' containers exited; each comes back UNCLAIMED (with an auction) or CRASHED, per the policy. An
     * evacuating twin's container that exits is not a crash of the slot (its replacement is on its way): the twin is
     * removed.
     */
    Map<ActualLrpKey, Outcome> crash(Map<ActualLrpKey, CrashReport> crashes, Actor actor, ChangeLog changes) {
        Instant now = clock.instant();
        Map<ActualLrpKey, ActualLrp> twins = store.loadEvacuating(crashes.keySet());
        Map<String, List<ActualLrp>> restarts = new TreeMap<>();
        Map<ActualLrpKey, Outcome> outcomes = each(crashes, Outcome.NOT_FOUND, (lrp, c) -> {
            ActualLrp twin = twins.get(lrp.key());
            if (twin != null && twin.isOwnedBy(c.owner()) && !lrp.isOwnedBy(c.owner())) {
                removeTwin(twin, "crashed while evacuating: " + c.reason(), actor.on(c.owner()), changes);
                return true;
            }
            ActualLrpSnapshot before = lrp.snapshot(policy);
            ActualLrpState after = lrp.crash(c.owner(), c.reason(), policy, now);
            // Diego announces a crash twice: as a crash, and as the change a client following changes must see
            changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CRASHED, before, lrp, c.reason(), actor.on(c.owner()));
            changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CHANGED, before, lrp, c.reason(), actor.on(c.owner()));
            if (after == ActualLrpState.UNCLAIMED) {
                restarts.computeIfAbsent(lrp.processGuid(), g -> new ArrayList<>()).add(lrp);
            }
            return true;
        });
        restarts.forEach((guid, list) -> requestStart(guid, list.get(0).domain(),
                list.stream().map(ActualLrp::index).toList(), "restart after crash", changes));
        return outcomes;
    }

    /**
     * Deletes the record this owner holds, the slot's ordinary record or its evacuating twin; a missing record is a
     * no-op, another owner's is rejected.
     */
    Map<ActualLrpKey, Outcome> remove(Map<ActualLrpKey, InstanceOwner> owners, String reason, Actor actor,
            ChangeLog changes) {
        Map<ActualLrpKey, ActualLrp> lrps = store.load(owners.keySet());
        Map<ActualLrpKey, ActualLrp> twins = store.loadEvacuating(owners.keySet());
        Map<ActualLrpKey, Outcome> outcomes = new LinkedHashMap<>();
        owners.forEach((key, owner) -> {
            ActualLrp lrp = lrps.get(key);
            ActualLrp twin = twins.get(key);
            if (twin != null && twin.isOwnedBy(owner)) {
                removeTwin(twin, reason, actor.on(owner), changes);
                outcomes.put(key, Outcome.CHANGED);
            } else {
                outcomes.put(key, lrp == null ? Outcome.NO_OP : apply(lrp, l -> {
                    ActualLrpSnapshot before = l.snapshot(policy);
                    l.remove(owner);
                    changes.actualRemoved(l, before, reason, actor.on(owner));
                    return true;
                }));
            }
        });
        return outcomes;
    }

    /**
     * The owners' cells drain (SPEC 8.5): each slot goes back to UNCLAIMED with an auction for its replacement, and a
     * RUNNING instance keeps serving from an evacuating twin until the replacement runs. A slot whose twin this owner
     * created already is a no-op (the drain repeats every sync); one whose twin another incarnation still holds is
     * rejected for now (that twin goes once this slot's record runs elsewhere, and the drain tries again).
     */
    Map<ActualLrpKey, Outcome> evacuate(Map<ActualLrpKey, InstanceOwner> owners, Actor actor, ChangeLog changes) {
        Instant now = clock.instant();
        Map<ActualLrpKey, ActualLrp> twins = store.loadEvacuating(owners.keySet());
        Map<String, List<ActualLrp>> toAuction = new TreeMap<>();
        Map<ActualLrpKey, Outcome> outcomes = each(owners, Outcome.NOT_FOUND, (lrp, owner) -> {
            ActualLrp twin = twins.get(lrp.key());
            if (twin != null && twin.isOwnedBy(owner)) {
                return false;
            }
            if (twin != null && lrp.state() == ActualLrpState.RUNNING) {
                throw new IllegalTransitionException(lrp.key(), "cannot evacuate: " + twin.instanceGuid() + "@"
                        + twin.cellId() + " is still evacuating this slot");
            }
            ActualLrpSnapshot before = lrp.snapshot(policy);
            ActualLrp created = lrp.evacuate(owner, now);
            if (created != null) {
                changes.actualCreated(created, "evacuating cell " + owner.cellId(), actor.on(owner));
            }
            changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CHANGED, before, lrp, "evacuating cell " + owner.cellId(),
                    actor.on(owner));
            toAuction.computeIfAbsent(lrp.processGuid(), g -> new ArrayList<>()).add(lrp);
            return true;
        });
        toAuction.forEach((guid, list) -> requestStart(guid, list.get(0).domain(),
                list.stream().map(ActualLrp::index).toList(), "evacuation", changes));
        return outcomes;
    }

    /** Removes up to {@code limit} evacuating twins of cells that are gone: nothing serves from them any more. */
    Map<ActualLrpKey, Outcome> removeTwinsOfLostCells(int limit, String reason, ChangeLog changes) {
        Map<ActualLrpKey, Outcome> outcomes = new LinkedHashMap<>();
        for (ActualLrp twin : store.evacuatingOnLostCells(clock.instant(), limit)) {
            removeTwin(twin, reason, null, changes);
            outcomes.put(twin.key(), Outcome.CHANGED);
        }
        return outcomes;
    }

    private void removeTwin(ActualLrp twin, String reason, Actor actor, ChangeLog changes) {
        changes.actualRemoved(twin, twin.snapshot(policy), reason, actor);
    }

    /**
     * Unowned records (and those of cells that are gone) are deleted; live owners are asked to stop. A slot's evacuating
     * twin is retired the same way: a retired slot stops serving wherever it still runs.
     */
    Map<ActualLrpKey, Outcome> retire(Collection<ActualLrpKey> keys, String reason, ChangeLog changes) {
        Map<ActualLrpKey, ActualLrp> lrps = store.load(keys);
        Map<ActualLrpKey, ActualLrp> twins = store.loadEvacuating(keys);
        Set<String> liveCells = liveCells(java.util.stream.Stream.concat(lrps.values().stream(),
                twins.values().stream()).filter(ActualLrp::isOwned).map(ActualLrp::cellId).toList());
        Map<ActualLrpKey, Outcome> outcomes = new LinkedHashMap<>();
        for (ActualLrpKey key : new LinkedHashSet<>(keys)) {
            ActualLrp twin = twins.get(key);
            if (twin != null) {
                retireOne(twin, liveCells, reason, changes);
            }
            ActualLrp lrp = lrps.get(key);
            Outcome outcome = lrp == null ? Outcome.NO_OP : apply(lrp, l -> {
                retireOne(l, liveCells, reason, changes);
                return true;
            });
            outcomes.put(key, twin != null && outcome.kind() == Outcome.Kind.NO_OP ? Outcome.CHANGED : outcome);
        }
        return outcomes;
    }

    private void retireOne(ActualLrp lrp, Set<String> liveCells, String reason, ChangeLog changes) {
        switch (lrp.retire(liveCells::contains)) {
            case STOP -> {
                if (!lrp.isEvacuating() && lrp.requestStop(reason)) {
                    changes.actualWritten(lrp); // the mark the owner's sync repeats the stop from
                }
                changes.command(OutboxMessage.of(Topics.STOP_REQUESTS, lrp.cellId(), new LrpStopRequested(
                        ids.get(), lrp.cellId(), lrp.processGuid(), lrp.index(), lrp.instanceGuid(), reason)));
                changes.actualNoted(LifecycleEvent.ACTUAL_LRP_STOP_REQUESTED, lrp.snapshot(policy), lrp, reason, null);
            }
            case DELETE -> changes.actualRemoved(lrp, lrp.snapshot(policy), reason, null);
        }
    }

    /**
     * A deployment moves these slots to definition {@code version} (SPEC 14). An UNCLAIMED or CRASHED slot is rolled
     * at once (auctioned at the new version); a RUNNING one too when {@code keepServing} and its slot has no twin yet,
     * its instance serving on from a twin kept for the deployment. Any other owned slot (CLAIMED, RUNNING without a
     * twin to keep, or whose slot has one already) has its owner asked to stop: the record goes with the container and
     * the deployer recreates it at the new version. A slot at that version already is a no-op.
     */
    Map<ActualLrpKey, Outcome> roll(Collection<ActualLrpKey> keys, int version, boolean keepServing, String reason,
            ChangeLog changes) {
        Map<ActualLrpKey, Integer> requests = new LinkedHashMap<>();
        keys.forEach(k -> requests.put(k, version));
        Map<ActualLrpKey, ActualLrp> twins = store.loadEvacuating(keys);
        Map<String, List<ActualLrp>> toAuction = new TreeMap<>();
        Instant now = clock.instant();
        Map<ActualLrpKey, Outcome> outcomes = each(requests, Outcome.NOT_FOUND, (lrp, to) -> {
            if (lrp.definitionVersion() == to) {
                return false;
            }
            boolean twinKept = keepServing && !twins.containsKey(lrp.key());
            if (lrp.state() == ActualLrpState.CLAIMED || lrp.state() == ActualLrpState.RUNNING && !twinKept) {
                if (!lrp.requestStop(reason)) {
                    return false; // asked already: the owner's sync repeats the stop from the mark
                }
                changes.actualWritten(lrp);
                changes.command(OutboxMessage.of(Topics.STOP_REQUESTS, lrp.cellId(), new LrpStopRequested(ids.get(),
                        lrp.cellId(), lrp.processGuid(), lrp.index(), lrp.instanceGuid(), reason)));
                changes.actualNoted(LifecycleEvent.ACTUAL_LRP_STOP_REQUESTED, lrp.snapshot(policy), lrp, reason, null);
                return true;
            }
            ActualLrpSnapshot before = lrp.snapshot(policy);
            ActualLrp twin = lrp.roll(to, now);
            if (twin != null) {
                changes.actualCreated(twin, reason, null);
            }
            changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CHANGED, before, lrp, reason, null);
            toAuction.computeIfAbsent(lrp.processGuid(), g -> new ArrayList<>()).add(lrp);
            return true;
        });
        toAuction.forEach((guid, list) -> requestStart(guid, list.get(0).domain(),
                list.stream().map(ActualLrp::index).toList(), reason, changes));
        return outcomes;
    }

    /**
     * Removes the twins a deployment kept for these slots (their new instances proved healthy) and asks their cells to
     * stop them at once: without its twin, an old container must not serve, nor claim its slot back. A slot without
     * such a twin is a no-op.
     */
    Map<ActualLrpKey, Outcome> removeDeploymentTwins(Collection<ActualLrpKey> keys, String reason,
            ChangeLog changes) {
        Map<ActualLrpKey, ActualLrp> twins = store.loadEvacuating(keys);
        Map<ActualLrpKey, Outcome> outcomes = new LinkedHashMap<>();
        for (ActualLrpKey key : new LinkedHashSet<>(keys)) {
            ActualLrp twin = twins.get(key);
            if (twin == null || !twin.isKeptForDeployment()) {
                outcomes.put(key, Outcome.NO_OP);
                continue;
            }
            removeTwin(twin, reason, null, changes);
            changes.command(OutboxMessage.of(Topics.STOP_REQUESTS, twin.cellId(), new LrpStopRequested(ids.get(),
                    twin.cellId(), twin.processGuid(), twin.index(), twin.instanceGuid(), reason)));
            outcomes.put(key, Outcome.CHANGED);
        }
        return outcomes;
    }

    Map<ActualLrpKey, Outcome> unclaim(Collection<ActualLrpKey> keys, Set<ActualLrpState> expected, String reason,
            ChangeLog changes) {
        Map<ActualLrpKey, Boolean> requests = new LinkedHashMap<>();
        keys.forEach(k -> requests.put(k, true));
        Map<String, List<ActualLrp>> toAuction = new TreeMap<>();
        Instant now = clock.instant();
        Map<ActualLrpKey, Outcome> outcomes = each(requests, Outcome.NOT_FOUND, (lrp, ignored) -> {
            ActualLrpSnapshot before = lrp.snapshot(policy);
            lrp.unclaim(expected, now);
            changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CHANGED, before, lrp, reason, null);
            toAuction.computeIfAbsent(lrp.processGuid(), g -> new ArrayList<>()).add(lrp);
            return true;
        });
        toAuction.forEach((guid, list) -> requestStart(guid, list.get(0).domain(),
                list.stream().map(ActualLrp::index).toList(), reason, changes));
        return outcomes;
    }

    /** The generic loop: one load for every key, then the verb per record; a forbidden transition is REJECTED. */
    private <T> Map<ActualLrpKey, Outcome> each(Map<ActualLrpKey, T> requests, Outcome whenMissing, Verb<T> verb) {
        Map<ActualLrpKey, ActualLrp> lrps = store.load(requests.keySet());
        Map<ActualLrpKey, Outcome> outcomes = new LinkedHashMap<>();
        requests.forEach((key, request) -> {
            ActualLrp lrp = lrps.get(key);
            outcomes.put(key, lrp == null ? whenMissing : apply(lrp, l -> verb.apply(l, request)));
        });
        return outcomes;
    }

    private boolean changed(ActualLrp lrp, String type, String reason, Actor actor, ChangeLog changes,
            Supplier<Boolean> verb) {
        ActualLrpSnapshot before = lrp.snapshot(policy);
        boolean changed = verb.get();
        if (changed) {
            changes.actualChanged(type, before, lrp, reason, actor);
        }
        return changed;
    }

    private void requestStart(String processGuid, String domain, List<Integer> indices, String reason,
            ChangeLog changes) {
        if (!indices.isEmpty()) {
            changes.command(OutboxMessage.of(Topics.START_REQUESTS, processGuid,
                    new LrpStartRequested(ids.get(), processGuid, domain, indices, reason)));
        }
    }

    private Set<String> liveCells(Collection<String> cellIds) {
        if (cellIds.isEmpty()) {
            return Set.of();
        }
        Timestamp now = Timestamp.from(clock.instant());
        return new HashSet<>(jdbc.query(con -> {
            var ps = con.prepareStatement("SELECT cell_id FROM cells WHERE cell_id = ANY (?) AND expires_at > ?");
            ps.setArray(1, con.createArrayOf("varchar", new HashSet<>(cellIds).toArray()));
            ps.setTimestamp(2, now);
            return ps;
        }, (rs, i) -> rs.getString(1)));
    }

    private static Outcome apply(ActualLrp lrp, java.util.function.Predicate<ActualLrp> verb) {
        try {
            return verb.test(lrp) ? Outcome.CHANGED : Outcome.NO_OP;
        } catch (IllegalTransitionException e) {
            return Outcome.rejected(e.getMessage());
        }
    }

    @FunctionalInterface
    private interface Verb<T> {
        boolean apply(ActualLrp lrp, T request);
    }
}
