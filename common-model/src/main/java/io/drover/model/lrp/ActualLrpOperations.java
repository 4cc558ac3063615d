package io.drover.model.lrp;

import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.LrpStartRequested;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.messaging.OutboxMessage;
import io.drover.model.messaging.Topics;
import jakarta.persistence.EntityManager;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Supplier;
import org.hibernate.BatchSize;
import org.hibernate.Session;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The lifecycle operations of SPEC 3.3 as they run inside one transaction: load, apply the verb, note the change and
 * the commands it causes. {@link ActualLrpLifecycle} and {@link DesiredLrpLifecycle} wrap them in transactions and
 * retries; nothing else may call them.
 */
class ActualLrpOperations {

    private final EntityManager em;
    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final Supplier<UUID> ids;
    private final CrashRestartPolicy policy;

    ActualLrpOperations(EntityManager em, JdbcTemplate jdbc, Clock clock, Supplier<UUID> ids,
            CrashRestartPolicy policy) {
        this.em = em;
        this.jdbc = jdbc;
        this.clock = clock;
        this.ids = ids;
        this.policy = policy;
    }

    CrashRestartPolicy policy() {
        return policy;
    }

    Map<ActualLrpKey, ActualLrp> load(Collection<ActualLrpKey> keys) {
        List<ActualLrpKey> list = List.copyOf(new HashSet<>(keys));
        Map<ActualLrpKey, ActualLrp> found = new HashMap<>();
        if (list.isEmpty()) {
            return found;
        }
        // one SELECT ... WHERE (process_guid, instance_index) IN (...) per 500 keys; null for a missing key
        List<ActualLrp> loaded = em.unwrap(Session.class).findMultiple(ActualLrp.class, list, new BatchSize(500));
        for (ActualLrp lrp : loaded) {
            if (lrp != null) {
                found.put(lrp.key(), lrp);
            }
        }
        return found;
    }

    /** Creates the missing indices as UNCLAIMED and asks for one auction for all of them; returns what it created. */
    List<Integer> createUnclaimed(String processGuid, String domain, Collection<Integer> indices, String reason,
            ChangeLog changes) {
        Set<Integer> existing = existingIndices(processGuid, indices);
        Instant now = clock.instant();
        List<Integer> created = new ArrayList<>();
        for (int index : new TreeSet<>(indices)) {
            if (!existing.contains(index)) {
                ActualLrp lrp = ActualLrp.unclaimed(ActualLrpKey.of(processGuid, index), domain, ids.get(), now);
                em.persist(lrp);
                changes.actualCreated(lrp, reason);
                created.add(index);
            }
        }
        requestStart(processGuid, domain, created, reason, changes);
        return created;
    }

    Map<ActualLrpKey, Outcome> place(UUID auctionId, Map<ActualLrpKey, String> cellByKey, ChangeLog changes) {
        Map<ActualLrpKey, ActualLrp> lrps = load(cellByKey.keySet());
        Map<ActualLrpKey, Outcome> outcomes = new LinkedHashMap<>();
        Map<String, List<ActualLrp>> byCell = new TreeMap<>();
        Instant now = clock.instant();
        cellByKey.forEach((key, cell) -> outcomes.put(key, apply(lrps.get(key), lrp -> {
            ActualLrpSnapshot before = lrp.snapshot(policy);
            boolean changed = lrp.place(cell, now);
            if (changed) {
                changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CHANGED, before, lrp, "placed on " + cell);
                byCell.computeIfAbsent(cell, c -> new ArrayList<>()).add(lrp);
            }
            return changed;
        })));
        changes.afterFlush(() -> byCell.forEach((cell, placed) -> changes.command(OutboxMessage.of(
                Topics.AUCTION_RESULTS, cell, new LrpsPlaced(ids.get(), cell, auctionId, placed.stream()
                        .map(l -> new LrpsPlaced.Placement(l.processGuid(), l.index(), l.epoch(), l.version()))
                        .toList())))));
        return outcomes;
    }

    Map<ActualLrpKey, Outcome> failPlacement(Map<ActualLrpKey, String> errorByKey, ChangeLog changes) {
        Map<ActualLrpKey, ActualLrp> lrps = load(errorByKey.keySet());
        Map<ActualLrpKey, Outcome> outcomes = new LinkedHashMap<>();
        Instant now = clock.instant();
        errorByKey.forEach((key, error) -> outcomes.put(key, apply(lrps.get(key), lrp -> {
            ActualLrpSnapshot before = lrp.snapshot(policy);
            boolean changed = lrp.failPlacement(error, now);
            if (changed) {
                changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CHANGED, before, lrp, error);
            }
            return changed;
        })));
        return outcomes;
    }

    Map<ActualLrpKey, Outcome> claim(Map<ActualLrpKey, InstanceOwner> ownerByKey, ChangeLog changes) {
        Map<ActualLrpKey, ActualLrp> lrps = load(ownerByKey.keySet());
        Map<ActualLrpKey, Outcome> outcomes = new LinkedHashMap<>();
        Instant now = clock.instant();
        ownerByKey.forEach((key, owner) -> outcomes.put(key, apply(lrps.get(key), lrp -> {
            ActualLrpSnapshot before = lrp.snapshot(policy);
            boolean changed = lrp.claim(owner, now);
            if (changed) {
                changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CHANGED, before, lrp, "claimed by " + owner.cellId());
            }
            return changed;
        })));
        return outcomes;
    }

    Map<ActualLrpKey, Outcome> start(Collection<StartedInstance> requests, ChangeLog changes) {
        Map<ActualLrpKey, ActualLrp> lrps = load(requests.stream().map(StartedInstance::key).toList());
        Map<ActualLrpKey, Outcome> outcomes = new LinkedHashMap<>();
        Instant now = clock.instant();
        for (StartedInstance r : requests) {
            ActualLrp existing = lrps.get(r.key());
            if (existing == null) {
                ActualLrp lrp = ActualLrp.running(r.key(), r.domain(), ids.get(), r.owner(), r.netInfo(), now);
                em.persist(lrp);
                lrps.put(r.key(), lrp);
                changes.actualCreated(lrp, "running container had no record");
                outcomes.put(r.key(), Outcome.CHANGED);
                continue;
            }
            outcomes.put(r.key(), apply(existing, lrp -> {
                ActualLrpSnapshot before = lrp.snapshot(policy);
                boolean changed = lrp.start(r.owner(), r.netInfo(), now);
                if (changed) {
                    changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CHANGED, before, lrp, "started on " + r.owner().cellId());
                }
                return changed;
            }));
        }
        return outcomes;
    }

    ActualLrpState crash(ActualLrpKey key, InstanceOwner owner, String reason, ChangeLog changes) {
        ActualLrp lrp = require(key);
        ActualLrpSnapshot before = lrp.snapshot(policy);
        ActualLrpState after = lrp.crash(owner, reason, policy, clock.instant());
        changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CRASHED, before, lrp, reason);
        if (after == ActualLrpState.UNCLAIMED) {
            requestStart(lrp.processGuid(), lrp.domain(), List.of(lrp.index()), "restart after crash", changes);
        }
        return after;
    }

    Outcome remove(ActualLrpKey key, InstanceOwner owner, String reason, ChangeLog changes) {
        return apply(load(List.of(key)).get(key), lrp -> {
            if (!lrp.isOwnedBy(owner)) {
                throw new IllegalTransitionException(key, "cannot remove: not owned by "
                        + owner.instanceGuid() + "@" + owner.cellId() + " (" + lrp.state() + ")");
            }
            delete(lrp, reason, changes);
            return true;
        }, Outcome.NO_OP);
    }

    Map<ActualLrpKey, Outcome> retire(Collection<ActualLrpKey> keys, String reason, ChangeLog changes) {
        Map<ActualLrpKey, ActualLrp> lrps = load(keys);
        Set<String> liveCells = liveCells(lrps.values().stream().filter(ActualLrp::isOwned).map(ActualLrp::cellId)
                .toList());
        Map<ActualLrpKey, Outcome> outcomes = new LinkedHashMap<>();
        for (ActualLrpKey key : new LinkedHashSet<>(keys)) {
            outcomes.put(key, apply(lrps.get(key), lrp -> {
                if (lrp.isOwned() && liveCells.contains(lrp.cellId())) {
                    changes.command(OutboxMessage.of(Topics.STOP_REQUESTS, lrp.cellId(), new LrpStopRequested(
                            ids.get(), lrp.cellId(), lrp.processGuid(), lrp.index(), lrp.instanceGuid(), reason)));
                } else {
                    delete(lrp, reason, changes);
                }
                return true;
            }, Outcome.NO_OP));
        }
        return outcomes;
    }

    Map<ActualLrpKey, Outcome> unclaim(Collection<ActualLrpKey> keys, Set<ActualLrpState> expected, String reason,
            ChangeLog changes) {
        Map<ActualLrpKey, ActualLrp> lrps = load(keys);
        Map<ActualLrpKey, Outcome> outcomes = new LinkedHashMap<>();
        Map<String, List<ActualLrp>> toAuction = new TreeMap<>();
        Instant now = clock.instant();
        for (ActualLrpKey key : new LinkedHashSet<>(keys)) {
            outcomes.put(key, apply(lrps.get(key), lrp -> {
                if (!expected.contains(lrp.state())) {
                    throw new IllegalTransitionException(key, "not unclaimed: " + lrp.state() + " now, the repair "
                            + "expected " + expected);
                }
                ActualLrpSnapshot before = lrp.snapshot(policy);
                lrp.unclaim(now);
                changes.actualChanged(LifecycleEvent.ACTUAL_LRP_CHANGED, before, lrp, reason);
                toAuction.computeIfAbsent(lrp.processGuid(), g -> new ArrayList<>()).add(lrp);
                return true;
            }));
        }
        toAuction.forEach((guid, list) -> requestStart(guid, list.get(0).domain(),
                list.stream().map(ActualLrp::index).toList(), reason, changes));
        return outcomes;
    }

    private void delete(ActualLrp lrp, String reason, ChangeLog changes) {
        ActualLrpSnapshot before = lrp.snapshot(policy);
        em.remove(lrp);
        changes.actualRemoved(before, reason);
    }

    private void requestStart(String processGuid, String domain, List<Integer> indices, String reason,
            ChangeLog changes) {
        if (!indices.isEmpty()) {
            changes.command(OutboxMessage.of(Topics.START_REQUESTS, processGuid,
                    new LrpStartRequested(ids.get(), processGuid, domain, indices, reason)));
        }
    }

    private ActualLrp require(ActualLrpKey key) {
        ActualLrp lrp = load(List.of(key)).get(key);
        if (lrp == null) {
            throw new ActualLrpNotFoundException(key);
        }
        return lrp;
    }

    /** Which of these indices have a record: only the indices, so no entity is loaded for a brand-new desire. */
    private Set<Integer> existingIndices(String processGuid, Collection<Integer> indices) {
        if (indices.isEmpty()) {
            return Set.of();
        }
        em.flush(); // records persisted earlier in this transaction must be seen by the query
        return new HashSet<>(jdbc.query(con -> {
            var ps = con.prepareStatement(
                    "SELECT instance_index FROM actual_lrps WHERE process_guid = ? AND instance_index = ANY (?)");
            ps.setString(1, processGuid);
            ps.setArray(2, con.createArrayOf("integer", indices.toArray()));
            return ps;
        }, (rs, i) -> rs.getInt(1)));
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

    private static Outcome apply(ActualLrp lrp, Verb verb) {
        return apply(lrp, verb, Outcome.NOT_FOUND);
    }

    private static Outcome apply(ActualLrp lrp, Verb verb, Outcome whenMissing) {
        if (lrp == null) {
            return whenMissing;
        }
        try {
            return verb.apply(lrp) ? Outcome.CHANGED : Outcome.NO_OP;
        } catch (IllegalTransitionException e) {
            return Outcome.rejected(e.getMessage());
        }
    }

    @FunctionalInterface
    private interface Verb {
        boolean apply(ActualLrp lrp);
    }
}
