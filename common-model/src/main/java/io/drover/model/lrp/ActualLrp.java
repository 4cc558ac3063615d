package io.drover.model.lrp;

import static io.drover.model.lrp.ActualLrpState.CLAIMED;
import static io.drover.model.lrp.ActualLrpState.CRASHED;
import static io.drover.model.lrp.ActualLrpState.RUNNING;
import static io.drover.model.lrp.ActualLrpState.UNCLAIMED;

import io.drover.model.placement.Placement;
import io.drover.model.placement.PlacementState;
import io.drover.model.planted.PlantedBug;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * One row of an instance slot: the slot's record, or the twin that keeps an old incarnation serving during a drain or a
 * rolling update ({@link InstanceSlot} owns the rules that involve both). THE state machine of SPEC 3 for one row: no
 * setters; each verb checks the {@link Transitions transition table}, treats an exact repeat as a no-op (returns
 * {@code false}) and throws {@link IllegalTransitionException} for anything the table forbids. The verbs are
 * package-private: nothing outside the lifecycle changes a record.
 */
public final class ActualLrp {

    /** Why a twin exists: a draining cell, or a deployment that keeps the old instance serving (SPEC 8.5, 14). */
    enum KeptFor {
        EVACUATION, DEPLOYMENT
    }

    private final ActualLrpKey key;
    private final String domain;
    private final UUID epoch;
    private final KeptFor keptFor; // null for the slot's record
    private int definitionVersion;
    private ActualLrpState state = UNCLAIMED;
    private InstanceOwner owner = InstanceOwner.NONE;
    private NetInfo netInfo;
    private int crashCount;
    private String crashReason;
    private PlacementState placement = PlacementState.NONE;
    private Instant since;
    private String stopRequested;
    private long version;

    private ActualLrp(ActualLrpKey key, String domain, UUID epoch, KeptFor keptFor, int definitionVersion,
            Instant since) {
        this.key = Objects.requireNonNull(key);
        this.domain = Objects.requireNonNull(domain);
        this.epoch = Objects.requireNonNull(epoch);
        this.keptFor = keptFor;
        this.definitionVersion = definitionVersion;
        this.since = since;
    }

    /** A new UNCLAIMED instance of definition version {@code definitionVersion}, waiting for an auction. */
    static ActualLrp unclaimed(ActualLrpKey key, String domain, UUID epoch, Instant now, int definitionVersion) {
        return new ActualLrp(key, domain, epoch, null, definitionVersion, now);
    }

    /** A record for a container that runs but has no record (SPEC 3.3 start): it is never killed for that. */
    static ActualLrp running(ActualLrpKey key, String domain, UUID epoch, InstanceOwner owner, NetInfo netInfo,
            Instant now, int definitionVersion) {
        ActualLrp lrp = new ActualLrp(key, domain, epoch, null, definitionVersion, now);
        lrp.becomeRunning(owner, netInfo, now);
        return lrp;
    }

    /** A row as stored; for {@link ActualLrpStore} only. */
    static ActualLrp stored(ActualLrpKey key, String domain, UUID epoch, KeptFor keptFor, int definitionVersion,
            ActualLrpState state, InstanceOwner owner, NetInfo netInfo, int crashCount, String crashReason,
            PlacementState placement, Instant since, String stopRequested, long version) {
        ActualLrp lrp = new ActualLrp(key, domain, epoch, keptFor, definitionVersion, since);
        lrp.state = Objects.requireNonNull(state);
        lrp.owner = owner;
        lrp.netInfo = netInfo;
        lrp.crashCount = crashCount;
        lrp.crashReason = crashReason;
        lrp.placement = placement;
        lrp.stopRequested = stopRequested;
        lrp.version = version;
        return lrp;
    }

    /** The auctioneer chose {@code cell}: the record stays UNCLAIMED and remembers the placement in flight. */
    boolean place(String cell, Instant now) {
        Transitions.checkPlacement(key, state, "place");
        return changePlacement(placement.placedOn(cell, now));
    }

    /**
     * No cell could (or would) take it: it stays UNCLAIMED with the reason and waits for another auction. A cell that
     * turns its placement away names itself in {@code placedOn}; the record then fails only while that placement is
     * still the current one.
     */
    boolean failPlacement(String error, String placedOn, Instant now) {
        Transitions.checkPlacement(key, state, "fail placement");
        if (placedOn != null && !placement.isOn(placedOn)) {
            throw new IllegalTransitionException(key, "cannot fail placement on " + placedOn + ": "
                    + placement.describe());
        }
        boolean changed = changePlacement(placement.failed(error));
        since = changed ? now : since;
        return changed;
    }

    /**
     * A cell takes ownership before starting the container. With a {@code placement}, the cell claims what an auction
     * gave it, only while the record is still that placement (UNCLAIMED, placed on this cell, same epoch and definition
     * version): a redelivered or overtaken auction result never starts a second container, nor an instance of a
     * definition the slot no longer wants.
     */
    boolean claim(InstanceOwner claimant, Placement placed, Instant now) {
        requireOwner(claimant);
        if (state == CLAIMED && owner.equals(claimant)) {
            return false;
        }
        if (placed != null && !PlantedBug.CLAIM_VERSION_CHECK.planted()
                && !(state == UNCLAIMED && placed.isCurrent(placement, epoch, definitionVersion))) {
            throw new IllegalTransitionException(key, "placement on " + claimant.cellId() + " is no longer current ("
                    + state + ", " + placed.whyNotCurrent(placement, epoch, definitionVersion) + ")");
        }
        Transitions.check(key, state, owner, claimant, CLAIMED);
        state = CLAIMED;
        owner = claimant;
        netInfo = null;
        placement = PlacementState.NONE;
        since = now;
        return true;
    }

    /**
     * The container is up and healthy. One that did not claim this record (a container adopted after its record was
     * lost) takes it only if it runs the definition version the record wants ({@code runs}, null when its cell cannot
     * tell).
     */
    boolean start(InstanceOwner starter, NetInfo net, Integer runs, Instant now) {
        requireOwner(starter);
        Objects.requireNonNull(net, "netInfo");
        if (state == RUNNING && owner.equals(starter) && net.equals(netInfo)) {
            return false;
        }
        if (!owner.equals(starter) && runs != null && runs != definitionVersion) {
            throw new IllegalTransitionException(key, "cannot start: " + starter.instanceGuid() + " runs definition "
                    + "version " + runs + ", the slot wants " + definitionVersion);
        }
        Transitions.check(key, state, owner, starter, RUNNING);
        becomeRunning(starter, net, now);
        return true;
    }

    /**
     * The owner's container exited. Counts the crash (from 1 again after a long run), clears the owner and goes to
     * UNCLAIMED when the policy restarts at once, CRASHED otherwise. Returns the new state.
     */
    ActualLrpState crash(InstanceOwner crashed, String reason, CrashRestartPolicy policy, Instant now) {
        requireOwner(crashed);
        Transitions.check(key, state, owner, crashed, CRASHED);
        Duration ranFor = state == RUNNING ? Duration.between(since, now) : null;
        crashCount = policy.crashCountAfterCrash(crashCount, ranFor);
        crashReason = reason;
        clearOwner();
        state = policy.restartsImmediately(crashCount) ? UNCLAIMED : CRASHED;
        since = now;
        return state;
    }

    /**
     * Back to UNCLAIMED with no owner and no placement, ready for a new auction (converger, evacuation). Only from one
     * of {@code expected}: a repair planned from a snapshot does not apply to a record that moved on since.
     */
    void unclaim(Set<ActualLrpState> expected, Instant now) {
        if (!expected.contains(state)) {
            throw new IllegalTransitionException(key, "not unclaimed: " + state + " now, the repair expected "
                    + expected);
        }
        Transitions.check(key, state, owner, InstanceOwner.NONE, UNCLAIMED);
        clearOwner();
        placement = placement.withdrawn();
        state = UNCLAIMED;
        since = now;
    }

    /**
     * The owner's cell drains (SPEC 8.5): the slot goes back to UNCLAIMED for a replacement elsewhere, and a RUNNING
     * instance keeps serving from the returned evacuating twin (same owner and address) until the replacement runs. A
     * CLAIMED instance served nothing yet: it is only unclaimed (null).
     */
    ActualLrp evacuate(InstanceOwner evacuator, Instant now) {
        requireOwner(evacuator);
        if (keptFor != null || !isOwnedBy(evacuator)) {
            throw new IllegalTransitionException(key, "cannot evacuate: not owned by " + evacuator.instanceGuid() + "@"
                    + evacuator.cellId() + " (" + state + (keptFor == null ? "" : ", a twin") + ")");
        }
        return handOver(KeptFor.EVACUATION, definitionVersion, now);
    }

    /**
     * A deployment replaces this slot's incarnation with one of definition {@code version} (SPEC 14): the slot goes back
     * to UNCLAIMED at that version, its crashes forgotten, for an auction. A RUNNING instance keeps serving from the
     * returned twin, kept for the deployment until the new instance has proved healthy; an UNCLAIMED or CRASHED one
     * served nothing. A CLAIMED one is never rolled (its owner is asked to stop instead, see {@link #requestStop}).
     */
    ActualLrp roll(int version, Instant now) {
        if (keptFor != null || version == definitionVersion || state == CLAIMED) {
            throw new IllegalTransitionException(key, "cannot roll to definition version " + version + ": " + state
                    + " at version " + definitionVersion + (keptFor == null ? "" : ", a twin"));
        }
        return handOver(KeptFor.DEPLOYMENT, version, now);
    }

    private ActualLrp handOver(KeptFor keep, int version, Instant now) {
        ActualLrp twin = state == RUNNING ? twin(keep) : null;
        Transitions.check(key, state, owner, InstanceOwner.NONE, UNCLAIMED);
        if (version != definitionVersion) {
            crashCount = 0;
            crashReason = null;
            definitionVersion = version;
        }
        clearOwner();
        placement = PlacementState.NONE;
        state = UNCLAIMED;
        since = now;
        return twin;
    }

    private ActualLrp twin(KeptFor keep) {
        ActualLrp twin = new ActualLrp(key, domain, epoch, keep, definitionVersion, since);
        twin.becomeRunning(owner, netInfo, since);
        twin.crashCount = crashCount;
        twin.crashReason = crashReason;
        return twin;
    }

    /** The owning cell's container is gone: the row may be deleted, by that cell only (SPEC 3.3 remove). */
    void remove(InstanceOwner remover) {
        if (!isOwnedBy(remover)) {
            throw new IllegalTransitionException(key, "cannot remove: not owned by " + remover.instanceGuid() + "@"
                    + remover.cellId() + " (" + state + ")");
        }
    }

    /**
     * Marks the owner's container as asked to stop: the mark is what the owning cell's sync repeats if the stop request
     * itself is lost, and it goes with the owner. Returns whether it was not marked yet.
     */
    boolean requestStop(String reason) {
        if (!isOwned()) {
            throw new IllegalTransitionException(key, "cannot request a stop: " + state);
        }
        boolean first = stopRequested == null;
        stopRequested = Objects.requireNonNull(reason, "reason");
        return first;
    }

    /** After a successful versioned write. */
    void written() {
        version++;
    }

    private boolean changePlacement(PlacementState next) {
        boolean changed = next != placement;
        placement = next;
        return changed;
    }

    private void becomeRunning(InstanceOwner runner, NetInfo net, Instant now) {
        state = RUNNING;
        owner = runner;
        netInfo = net;
        placement = PlacementState.NONE;
        since = now;
    }

    private void clearOwner() {
        owner = InstanceOwner.NONE;
        netInfo = null;
        stopRequested = null;
    }

    private static void requireOwner(InstanceOwner owner) {
        if (owner == null || owner.isEmpty()) {
            throw new IllegalArgumentException("this operation needs an instance_guid and a cell_id");
        }
    }

    public boolean isOwnedBy(InstanceOwner candidate) {
        return isOwned() && owner.equals(candidate);
    }

    public boolean isOwned() {
        return Transitions.isOwned(state);
    }

    /** A twin: the incarnation that keeps serving during a drain or a rolling update until its replacement runs. */
    public boolean isEvacuating() {
        return keptFor != null;
    }

    /** A twin a deployment keeps serving until the slot's new incarnation has proved healthy (not a drain's). */
    public boolean isKeptForDeployment() {
        return keptFor == KeptFor.DEPLOYMENT;
    }

    KeptFor keptFor() {
        return keptFor;
    }
    // The row as read: plain accessors.

    /** The definition version this incarnation runs (SPEC 14); 1 until a deployment changes the LRP. */
    public int definitionVersion() { return definitionVersion; }

    /** Why the owner was asked to stop its container, or null when nobody asked. */
    public String stopRequested() { return stopRequested; }

    /** The auctions' state of an UNCLAIMED record: the placement in flight, or why none could be made. */
    public PlacementState placement() { return placement; }
    public ActualLrpKey key() { return key; }
    public String processGuid() { return key.processGuid(); }
    public int index() { return key.index(); }
    public String domain() { return domain; }
    public ActualLrpState state() { return state; }
    public InstanceOwner owner() { return owner; }
    public String instanceGuid() { return owner.instanceGuid(); }
    public String cellId() { return owner.cellId(); }
    public NetInfo netInfo() { return netInfo; }
    public int crashCount() { return crashCount; }
    public String crashReason() { return crashReason; }
    public String placementError() { return placement.error(); }
    public Instant since() { return since; }
    public UUID epoch() { return epoch; }
    public long version() { return version; }
    public ModificationTag modificationTag() { return new ModificationTag(epoch, version); }

    /** An immutable copy for events and responses; {@code next_restart_at} comes from the policy. */
    public ActualLrpSnapshot snapshot(CrashRestartPolicy policy) {
        Instant nextRestartAt = state == CRASHED ? policy.nextRestartAt(crashCount, since).orElse(null) : null;
        return ActualLrpSnapshot.of(this, nextRestartAt);
    }

    @Override
    public String toString() {
        return "ActualLrp[" + key + (keptFor == null ? "" : " kept for " + keptFor) + " " + state
                + (owner.isEmpty() ? "" : " on " + owner.cellId()) + " v" + version + "]";
    }
}
