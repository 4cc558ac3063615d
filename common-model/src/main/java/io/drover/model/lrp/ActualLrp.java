package io.drover.model.lrp;

import static io.drover.model.lrp.ActualLrpState.CLAIMED;
import static io.drover.model.lrp.ActualLrpState.CRASHED;
import static io.drover.model.lrp.ActualLrpState.RUNNING;
import static io.drover.model.lrp.ActualLrpState.UNCLAIMED;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.PostLoad;
import jakarta.persistence.PostPersist;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import jakarta.persistence.Version;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.springframework.data.domain.Persistable;

/**
 * One instance slot of a desired LRP and where its current incarnation is: THE state machine of SPEC 3. There are no
 * setters; each lifecycle verb checks the {@link Transitions transition table}, treats an exact repeat as a no-op
 * (returns {@code false}) and throws {@link IllegalTransitionException} for anything the table forbids. Only
 * {@link ActualLrpLifecycle} calls these verbs, inside its transactions: they are package-private so nothing outside
 * this package can change a record except through the lifecycle.
 */
@Entity
@Table(name = "actual_lrps")
public class ActualLrp implements Persistable<ActualLrpKey> {

    @EmbeddedId
    private ActualLrpKey key;

    private String domain;

    @Enumerated(EnumType.STRING)
    private ActualLrpState state;

    private String instanceGuid;
    private String cellId;
    private String address;

    @Convert(converter = PortMappingsConverter.class)
    private List<NetInfo.PortMapping> ports;

    private int crashCount;
    private String crashReason;
    private String placementError;
    private String placedCellId;
    private Instant placedAt;
    private Instant since;
    private UUID epoch;

    @Version
    @Column(nullable = false)
    private long version;

    @Transient
    private boolean isNew;

    protected ActualLrp() {
    }

    private ActualLrp(ActualLrpKey key, String domain, UUID epoch, Instant now) {
        this.key = Objects.requireNonNull(key);
        this.domain = Objects.requireNonNull(domain);
        this.epoch = Objects.requireNonNull(epoch);
        this.state = UNCLAIMED;
        this.since = now;
        this.isNew = true;
    }

    /** A new UNCLAIMED instance waiting for an auction. */
    static ActualLrp unclaimed(ActualLrpKey key, String domain, UUID epoch, Instant now) {
        return new ActualLrp(key, domain, epoch, now);
    }

    /** A record for a container that runs but has no record (SPEC 3.3 start): it is never killed for that. */
    static ActualLrp running(ActualLrpKey key, String domain, UUID epoch, InstanceOwner owner, NetInfo netInfo,
            Instant now) {
        ActualLrp lrp = new ActualLrp(key, domain, epoch, now);
        lrp.becomeRunning(owner, netInfo, now);
        return lrp;
    }

    /** The auctioneer chose {@code cell}: the record stays UNCLAIMED and remembers the placement in flight. */
    boolean place(String cell, Instant now) {
        Objects.requireNonNull(cell, "cell");
        requireState(UNCLAIMED, "place");
        if (cell.equals(placedCellId) && placementError == null) {
            return false;
        }
        placedCellId = cell;
        placedAt = now;
        placementError = null;
        return true;
    }

    /** No cell could (or would) take it: it stays UNCLAIMED with the reason and waits for another auction. */
    boolean failPlacement(String error, Instant now) {
        Objects.requireNonNull(error, "error");
        requireState(UNCLAIMED, "fail placement");
        if (error.equals(placementError) && placedCellId == null) {
            return false;
        }
        placementError = error;
        clearPlacement();
        since = now;
        return true;
    }

    /** A cell takes ownership before starting the container. */
    boolean claim(InstanceOwner owner, Instant now) {
        requireOwner(owner);
        if (state == CLAIMED && owner().equals(owner)) {
            return false;
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

    /** Back to UNCLAIMED with no owner and no placement, ready for a new auction (converger, evacuation). */
    boolean unclaim(Instant now) {
        Transitions.check(key, state, owner(), InstanceOwner.NONE, UNCLAIMED);
        clearOwner();
        clearPlacement();
        state = UNCLAIMED;
        since = now;
        return true;
    }

    public boolean isOwnedBy(InstanceOwner owner) {
        return Transitions.isOwned(state) && owner().equals(owner);
    }

    public boolean isOwned() {
        return Transitions.isOwned(state);
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

    private void requireState(ActualLrpState expected, String verb) {
        if (state != expected) {
            throw new IllegalTransitionException(key, "cannot " + verb + " in state " + state);
        }
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
    public ActualLrpKey getId() {
        return key;
    }

    @Override
    public boolean isNew() {
        return isNew;
    }

    @PostLoad
    @PostPersist
    void markNotNew() {
        isNew = false;
    }

    @Override
    public String toString() {
        return "ActualLrp[" + key + " " + state + (cellId == null ? "" : " on " + cellId) + " v" + version + "]";
    }
}
