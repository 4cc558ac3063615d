package io.drover.model.lrp;

import io.drover.model.messaging.LifecycleEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * What one lifecycle transaction changed and asks for, noted by the slots' verbs while they run: the rows to insert,
 * update and delete, the visible changes (each becomes one audit row that is also the lifecycle event) and the commands
 * they cause (auctions, auction results, stop requests). {@link LifecycleRecorder} writes it once the verbs are done,
 * rows first, so that events and commands carry the new versions.
 */
final class ChangeLog {

    final List<ActualChange> actual = new ArrayList<>();
    final List<DesiredChange> desired = new ArrayList<>();
    // ActualLrp keeps Object's identity equality: one entry per row object, in the order first touched
    final Set<ActualLrp> inserts = new LinkedHashSet<>();
    final Set<ActualLrp> updates = new LinkedHashSet<>();
    final Set<ActualLrp> deletes = new LinkedHashSet<>();
    // noted rows: not written, but their version must still hold when the transaction commits
    final Set<ActualLrp> unchanged = new LinkedHashSet<>();
    /** Auctions asked for, one start request per LRP and reason: the indices, in the order asked. */
    final Map<AuctionRequest, List<Integer>> auctions = new LinkedHashMap<>();
    /** Auction results, one message per cell: the records placed there, with their LRP's life. */
    final Map<String, List<Placed>> placements = new TreeMap<>();
    /** Stop requests to the owning cells. */
    final List<Stop> stops = new ArrayList<>();
    /**
     * Slots this transaction may fill after waiting for a lock with its id taken: once its records are in, no younger
     * transaction may have published a change of them ({@link ActualLrpStore#requireNoYoungerEvents}).
     */
    final Set<ActualLrpKey> filledAfterAWait = new LinkedHashSet<>();
    /**
     * Whether this transaction wrote or locked a row already, so has its id: slots it reads from then on are checked
     * for versions younger than it ({@link RowVersions}). Set where a lifecycle transaction first writes or locks.
     */
    boolean tookItsId;
    UUID auctionId;
    /**
     * The slots this transaction has loaded, by key: a later load of the same slot in the transaction reuses them, so
     * a lifecycle can read every slot it will change before its first write (see {@link ActualLrpOperations#preload}).
     */
    final Map<ActualLrpKey, InstanceSlot> loaded = new java.util.HashMap<>();

    void actualCreated(ActualLrp lrp, String reason, Actor actor) {
        inserts.add(lrp);
        actual.add(new ActualChange(LifecycleEvent.ACTUAL_LRP_CREATED, null, lrp, reason, actor, true));
    }

    /** A change clients see: written, audited and published. */
    void actualChanged(String type, ActualLrpSnapshot before, ActualLrp lrp, String reason, Actor actor) {
        written(lrp);
        actual.add(new ActualChange(type, before, lrp, reason, actor, true));
    }

    /**
     * A decision about a row that changes nothing clients see (a stop asked of its cell): audited, so that who asked and
     * why is on record, but not published. The row is held at its version until the transaction commits, so the audit
     * row never lands after a change that a concurrent transaction made to it.
     */
    void actualNoted(String type, ActualLrpSnapshot now, ActualLrp lrp, String reason, Actor actor) {
        unchanged.add(lrp);
        actual.add(new ActualChange(type, now, lrp, reason, actor, false));
    }

    /** A change of internal columns only (a placement in flight, a stop mark): written, not published. */
    void actualWritten(ActualLrp lrp) {
        written(lrp);
    }

    void actualRemoved(ActualLrp lrp, ActualLrpSnapshot before, String reason, Actor actor) {
        actualRemoved(lrp, before, reason, actor, true);
    }

    /**
     * A row deleted; {@code published} false for a twin whose removal clients saw already (when it was asked to stop,
     * see {@link #twinDeregistered}): audited, not announced twice.
     */
    void actualRemoved(ActualLrp lrp, ActualLrpSnapshot before, String reason, Actor actor, boolean published) {
        if (!inserts.remove(lrp)) {
            updates.remove(lrp);
            deletes.add(lrp);
        }
        actual.add(new ActualChange(LifecycleEvent.ACTUAL_LRP_REMOVED, before, null, reason, actor, published));
    }

    /**
     * A twin asked to stop: its row stays (its container still runs and holds its resources until its cell removes it)
     * with the mark written, but clients see it removed now, so that nothing calls the old instance once it is asked
     * to stop.
     */
    void twinDeregistered(ActualLrp twin, ActualLrpSnapshot before, String reason, Actor actor) {
        written(twin);
        actual.add(new ActualChange(LifecycleEvent.ACTUAL_LRP_REMOVED, before, null, reason, actor, true));
    }

    /** Asks for an auction of this record (it is UNCLAIMED and wants a cell). */
    void auction(ActualLrp lrp, String reason) {
        auctions.computeIfAbsent(new AuctionRequest(lrp.processGuid(), lrp.domain(), reason), r -> new ArrayList<>())
                .add(lrp.index());
    }

    /** Sends {@code lrp} to {@code cell} in this transaction's auction result for that cell. */
    void placed(String cell, ActualLrp lrp, UUID lrpEpoch) {
        placements.computeIfAbsent(cell, c -> new ArrayList<>()).add(new Placed(lrp, lrpEpoch));
    }

    /** Asks the owning cell of {@code lrp} (a record or a twin) to stop its container. */
    void stop(ActualLrp lrp, String reason, UUID messageId) {
        stops.add(new Stop(messageId, lrp.cellId(), lrp.key(), lrp.instanceGuid(), reason));
    }

    /** A change of a desired LRP: {@code after} (null for a removal) carries its new version already. */
    void desired(String type, DesiredLrpSnapshot before, DesiredLrpSnapshot after, String reason) {
        desired.add(new DesiredChange(type, before, () -> after, reason));
    }

    boolean isEmpty() {
        return actual.isEmpty() && desired.isEmpty() && auctions.isEmpty() && placements.isEmpty() && stops.isEmpty();
    }

    private void written(ActualLrp lrp) {
        if (!inserts.contains(lrp)) {
            updates.add(lrp);
        }
    }

    /**
     * One audited change of an actual LRP; {@code after} is null for a removal, {@code actor} null when the
     * transaction's actor made it; {@code published} when it is also a lifecycle event.
     */
    record ActualChange(String type, ActualLrpSnapshot before, ActualLrp after, String reason, Actor actor,
            boolean published) {
    }

    /** One audited change of a desired LRP; {@code after} is null for a removal. */
    record DesiredChange(String type, DesiredLrpSnapshot before, Supplier<DesiredLrpSnapshot> after, String reason) {
    }

    /** Which LRP an auction request is for, and why. */
    record AuctionRequest(String processGuid, String domain, String reason) {
    }

    /** A record placed on a cell, and the life of its LRP (the desired LRP's epoch; null when it has none). */
    record Placed(ActualLrp lrp, UUID lrpEpoch) {
    }

    /** A stop asked of {@code cellId} for one incarnation. */
    record Stop(UUID messageId, String cellId, ActualLrpKey key, String instanceGuid, String reason) {
    }
}
