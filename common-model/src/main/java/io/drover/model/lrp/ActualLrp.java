package io.drover.model.lrp;

import static io.drover.model.lrp.ActualLrpState.CLAIMED;
import static io.drover.model.lrp.ActualLrpState.CRASHED;
import static io.drover.model.lrp.ActualLrpState.RUNNING;
import static io.drover.model.lrp.ActualLrpState.UNCLAIMED;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * One instance slot of a desired LRP and where its current incarnation is: THE state machine of SPEC 3. A plain domain
 * object, read and written by {@link ActualLrpStore} over JDBC. There are no setters; each lifecycle verb checks the
 * {@link Transitions transition table}, treats an exact repeat as a no-op (returns {@code false}) and throws
 * {@link IllegalTransitionException} for anything the table forbids. Only {@link ActualLrpLifecycle} calls these verbs,
 * inside its transactions: they are package-private so nothing outside this package can change a record except
 * through the lifecycle.
 */
public final class ActualLrp {

    private final ActualLrpKey key;
    private final String domain;
    private final UUID epoch;
    private final boolean evacuating;
    private boolean keptForDeployment;
    private int definitionVersion = 1;
    private ActualLrpState state;
    private String instanceGuid;
    private String cellId;
    private String address;
    private List<NetInfo.PortMapping> ports;
    private int crashCount;
    private String crashReason;
    private String placementError;
    private String placedCellId;
    private Instant placedAt;
    private Instant since;
    private String stopRequested;
    private long version;

    private ActualLrp(ActualLrpKey key, String domain, UUID epoch, Instant now, boolean evacuating) {
        this.key = Objects.requireNonNull(key);
        this.domain = Objects.requireNonNull(domain);
        this.epoch = Objects.requireNonNull(epoch);
        this.evacuating = evacuating;
        this.state = UNCLAIMED;
        this.since = now;
    }

    private ActualLrp(ActualLrpKey key, String domain, UUID epoch, Instant now) {
        this(key, domain, epoch, now, false);
    }

    /** A new UNCLAIMED instance of the first definition version, waiting for an auction. */
    static ActualLrp unclaimed(ActualLrpKey key, String domain, UUID epoch, Instant now) {
        return unclaimed(key, domain, epoch, now, 1);
    }

    /** A new UNCLAIMED instance of definition version {@code definitionVersion}, waiting for an auction. */
    static ActualLrp unclaimed(ActualLrpKey key, String domain, UUID epoch, Instant now, int definitionVersion) {
        ActualLrp lrp = new ActualLrp(key, domain, epoch, now);
        lrp.definitionVersion = definitionVersion;
        return lrp;
    }

    /** A record for a container that runs but has no record (SPEC 3.3 start): it is never killed for that. */
    static ActualLrp running(ActualLrpKey key, String domain, UUID epoch, InstanceOwner owner, NetInfo netInfo,
            Instant now, int definitionVersion) {
        ActualLrp lrp = new ActualLrp(key, domain, epoch, now);
        lrp.definitionVersion = definitionVersion;
        lrp.becomeRunning(owner, netInfo, now);
        return lrp;
    }

    /** A record as stored; for {@link ActualLrpStore} only. */
    static ActualLrp stored(ActualLrpKey key, String domain, UUID epoch, ActualLrpState state, InstanceOwner owner,
            NetInfo netInfo, int crashCount, String crashReason, String placementError, String placedCellId,
            Instant placedAt, Instant since, long version, boolean evacuating, String stopRequested,
            int definitionVersion, boolean keptForDeployment) {
        ActualLrp lrp = new ActualLrp(key, domain, epoch, since, evacuating);
        lrp.definitionVersion = definitionVersion;
        lrp.keptForDeployment = keptForDeployment;
        lrp.stopRequested = stopRequested;
        lrp.state = Objects.requireNonNull(state);
        lrp.instanceGuid = owner.instanceGuid();
        lrp.cellId = owner.cellId();
        lrp.address = netInfo == null ? null : netInfo.address();
        lrp.ports = netInfo == null ? null : netInfo.ports();
        lrp.crashCount = crashCount;
        lrp.crashReason = crashReason;
        lrp.placementError = placementError;
        lrp.placedCellId = placedCellId;
        lrp.placedAt = placedAt;
        lrp.version = version;
        return lrp;
    }

    /** The auctioneer chose {@code cell}: the record stays UNCLAIMED and remembers the placement in flight. */
    boolean place(String cell, Instant now) {
        Objects.requireNonNull(cell, "cell");
        Transitions.checkPlacement(key, state, "place");
        if (cell.equals(placedCellId) && placementError == null) {
            return false;
        }
        placedCellId = cell;
        placedAt = now;
        placementError = null;
        return true;
    }

    /**
     * No cell could (or would) take it: it stays UNCLAIMED with the reason and waits for another auction. A cell that
     * turns its placement away names itself in {@code placedOn}; the record then fails only while that placement is
     * still the current one.
     */
    boolean failPlacement(String error, String placedOn, Instant now) {
        Objects.requireNonNull(error, "error");
        Transitions.checkPlacement(key, state, "fail placement");
        if (placedOn != null && !placedOn.equals(placedCellId)) {
            throw new IllegalTransitionException(key, "cannot fail placement on " + placedOn + ": placed on "
                    + (placedCellId == null ? "no cell" : placedCellId));
        }
        if (error.equals(placementError) && placedCellId == null) {
            return false;
        }
        placementError = error;
        clearPlacement();
        since = now;
        return true;
    }

    /**
     * A cell takes ownership before starting the container. With a {@code placement}, the cell claims what an auction
     * gave it: only while the record is still that placement (UNCLAIMED, placed on this cell, same epoch), so a
     * redelivered or overtaken auction result never starts a second container.
     */
    boolean claim(InstanceOwner owner, UUID placedEpoch, Instant now) {
        requireOwner(owner);
        if (state == CLAIMED && owner().equals(owner)) {
            return false;
        }
        if (placedEpoch != null && !(state == UNCLAIMED && owner.cellId().equals(placedCellId)
                && placedEpoch.equals(epoch))) {
            throw new IllegalTransitionException(key, "placement on " + owner.cellId() + " is no longer current ("
                    + state + (placedCellId == null ? "" : ", placed on " + placedCellId) + ")");
        }
        Transitions.check(key, state, owner(), owner, CLAIMED);
        state = CLAIMED;
        instanceGuid = owner.instanceGuid();
        cellId = owner.cellId();
        clearNetInfo();
        placementError = null;
        clearPlacement();
        since = now;
        return true;
    }

    /** The container is up and healthy. */
    boolean start(InstanceOwner owner, NetInfo netInfo, Instant now) {
        requireOwner(owner);
        Objects.requireNonNull(netInfo, "netInfo");
        if (state == RUNNING && owner().equals(owner) && netInfo.equals(netInfo())) {
            return false;
        }
        Transitions.check(key, state, owner(), owner, RUNNING);
        becomeRunning(owner, netInfo, now);
        return true;
    }

    /**
     * The owner's container exited. Counts the crash (from 1 again after a long run), clears the owner and goes to
     * UNCLAIMED when the policy restarts at once, CRASHED otherwise. Returns the new state.
     */
    ActualLrpState crash(InstanceOwner owner, String reason, CrashRestartPolicy policy, Instant now) {
        requireOwner(owner);
        Transitions.check(key, state, owner(), owner, CRASHED);
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
        Transitions.check(key, state, owner(), InstanceOwner.NONE, UNCLAIMED);
        clearOwner();
        clearPlacement();
        state = UNCLAIMED;
        since = now;
    }

    /**
     * The owner's cell drains (SPEC 8.5): the slot goes back to UNCLAIMED for a replacement elsewhere, and, when the
     * instance was RUNNING, it keeps serving from the returned evacuating twin (same owner and address) until the
     * replacement runs. A CLAIMED instance served nothing yet: it is only unclaimed (null).
     */
    ActualLrp evacuate(InstanceOwner owner, Instant now) {
        requireOwner(owner);
        if (evacuating || !isOwnedBy(owner)) {
            throw new IllegalTransitionException(key, "cannot evacuate: not owned by " + owner.instanceGuid() + "@"
                    + owner.cellId() + " (" + state + (evacuating ? ", evacuating" : "") + ")");
        }
        ActualLrp twin = state == RUNNING ? twin() : null;
        Transitions.check(key, state, owner(), InstanceOwner.NONE, UNCLAIMED);
        clearOwner();
        clearPlacement();
        state = UNCLAIMED;
        since = now;
        return twin;
    }

    /**
     * A deployment replaces this slot's incarnation with one of definition {@code version} (SPEC 14): the slot goes back
     * to UNCLAIMED at that version, its crash count cleared, for an auction. A RUNNING instance keeps serving from the
     * returned twin (kept for the deployment: it serves until the deployer removes it once the new instance has proved
     * healthy); an UNCLAIMED or CRASHED one served nothing. An owned record that may not keep a twin (CLAIMED, or one
     * whose slot already has a twin) is not rolled here: its owner is asked to stop instead, see
     * {@link #requestStop}.
     */
    ActualLrp roll(int version, Instant now) {
        if (evacuating || version == definitionVersion || state == CLAIMED) {
            throw new IllegalTransitionException(key, "cannot roll to definition version " + version + ": " + state
                    + " at version " + definitionVersion + (evacuating ? ", evacuating" : ""));
        }
        ActualLrp twin = null;
        if (state == RUNNING) {
            twin = twin();
            twin.keptForDeployment = true;
        }
        Transitions.check(key, state, owner(), InstanceOwner.NONE, UNCLAIMED);
        clearOwner();
        clearPlacement();
        placementError = null;
        crashCount = 0;
        crashReason = null;
        state = UNCLAIMED;
        definitionVersion = version;
        since = now;
        return twin;
    }

    private ActualLrp twin() {
        ActualLrp twin = new ActualLrp(key, domain, epoch, since, true);
        twin.definitionVersion = definitionVersion;
        twin.becomeRunning(owner(), netInfo(), since);
        twin.crashCount = crashCount;
        twin.crashReason = crashReason;
        return twin;
    }

    /** The owning cell's container is gone: the record may be deleted, by that cell only (SPEC 3.3 remove). */
    void remove(InstanceOwner owner) {
        if (!isOwnedBy(owner)) {
            throw new IllegalTransitionException(key, "cannot remove: not owned by " + owner.instanceGuid() + "@"
                    + owner.cellId() + " (" + state + ")");
        }
    }

    /**
     * The slot is no longer wanted (SPEC 3.3 retire): an unowned record, or one owned by a cell that is gone, is deleted
     * at once; a live owner is asked to stop its container, and its removal deletes the record.
     */
    Retirement retire(Predicate<String> cellIsLive) {
        return isOwned() && cellIsLive.test(cellId) ? Retirement.STOP : Retirement.DELETE;
    }

    /**
     * Marks the owner's container as asked to stop (a retire that sends a stop): the mark is what the owning cell's
     * sync repeats if the stop request itself is lost, and it goes with the owner. Returns whether it was not marked.
     */
    boolean requestStop(String reason) {
        if (!isOwned() || evacuating) {
            throw new IllegalTransitionException(key, "cannot request a stop: " + state
                    + (evacuating ? ", evacuating" : ""));
        }
        boolean first = stopRequested == null;
        stopRequested = Objects.requireNonNull(reason, "reason");
        return first;
    }

    /** Why the owner was asked to stop its container, or null when nobody asked. */
    public String stopRequested() {
        return stopRequested;
    }

    /** What retiring a record does. */
    enum Retirement {
        DELETE, STOP
    }

    public boolean isOwnedBy(InstanceOwner owner) {
        return Transitions.isOwned(state) && owner().equals(owner);
    }

    public boolean isOwned() {
        return Transitions.isOwned(state);
    }

    /** An evacuating twin: the incarnation that keeps serving on a draining cell until its replacement runs. */
    public boolean isEvacuating() {
        return evacuating;
    }

    /** The definition version this incarnation runs (SPEC 14); 1 until a deployment changes the LRP. */
    public int definitionVersion() {
        return definitionVersion;
    }

    /** A twin a deployment keeps serving until the slot's new incarnation has proved healthy (not a drain's). */
    public boolean isKeptForDeployment() {
        return keptForDeployment;
    }

    /** After a successful versioned write. */
    void written() {
        version++;
    }

    private void becomeRunning(InstanceOwner owner, NetInfo netInfo, Instant now) {
        state = RUNNING;
        instanceGuid = owner.instanceGuid();
        cellId = owner.cellId();
        address = netInfo.address();
        ports = netInfo.ports();
        placementError = null;
        clearPlacement();
        since = now;
    }

    private void clearOwner() {
        instanceGuid = null;
        cellId = null;
        stopRequested = null;
        clearNetInfo();
    }

    private void clearNetInfo() {
        address = null;
        ports = null;
    }

    private void clearPlacement() {
        placedCellId = null;
        placedAt = null;
    }

    private static void requireOwner(InstanceOwner owner) {
        if (owner == null || owner.isEmpty()) {
            throw new IllegalArgumentException("this operation needs an instance_guid and a cell_id");
        }
    }

    public ActualLrpKey key() {
        return key;
    }

    public String processGuid() {
        return key.processGuid();
    }

    public int index() {
        return key.index();
    }

    public String domain() {
        return domain;
    }

    public ActualLrpState state() {
        return state;
    }

    public InstanceOwner owner() {
        return instanceGuid == null ? InstanceOwner.NONE : new InstanceOwner(instanceGuid, cellId);
    }

    public String instanceGuid() {
        return instanceGuid;
    }

    public String cellId() {
        return cellId;
    }

    public NetInfo netInfo() {
        return address == null ? null : new NetInfo(address, ports == null ? List.of() : ports);
    }

    List<NetInfo.PortMapping> ports() {
        return ports;
    }

    String address() {
        return address;
    }

    public int crashCount() {
        return crashCount;
    }

    public String crashReason() {
        return crashReason;
    }

    public String placementError() {
        return placementError;
    }

    public String placedCellId() {
        return placedCellId;
    }

    public Instant placedAt() {
        return placedAt;
    }

    public Instant since() {
        return since;
    }

    public UUID epoch() {
        return epoch;
    }

    public long version() {
        return version;
    }

    public ModificationTag modificationTag() {
        return new ModificationTag(epoch, version);
    }

    /** An immutable copy for events and responses; {@code next_restart_at} comes from the policy. */
    public ActualLrpSnapshot snapshot(CrashRestartPolicy policy) {
        Instant nextRestartAt = state == CRASHED ? policy.nextRestartAt(crashCount, since).orElse(null) : null;
        return ActualLrpSnapshot.of(this, nextRestartAt);
    }

    @Override
    public String toString() {
        return "ActualLrp[" + key + (evacuating ? " evacuating" : "") + " " + state
                + (cellId == null ? "" : " on " + cellId) + " v" + version + "]";
    }
}
