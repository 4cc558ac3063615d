package io.drover.model.deployment;

import io.drover.model.lrp.ActualLrpState;
import java.time.Instant;

/**
 * One instance slot as the step function sees it: its record (null state when it has none), the definition version
 * and since of that record, whether a twin kept by a deployment still serves the slot's old instance (a twin asked to
 * stop does not), and the record's row version as read (what the deployer's writes are guarded by).
 */
public record Slot(int index, ActualLrpState state, int version, Instant since, int crashCount, boolean twin,
        long recordVersion) {

    /** A slot as the step function needs it, its record's row version unknown. */
    public Slot(int index, ActualLrpState state, int version, Instant since, int crashCount, boolean twin) {
        this(index, state, version, since, crashCount, twin, -1);
    }

    /** A slot with no record (retired, or removed after its stop) but perhaps a twin. */
    public static Slot missing(int index, boolean twin) {
        return new Slot(index, null, 0, null, 0, twin, -1);
    }

    boolean hasRecord() {
        return state != null;
    }

    /** An instance serves the slot: its record is RUNNING, or a twin keeps the old one serving. */
    boolean serving() {
        return state == ActualLrpState.RUNNING || twin;
    }

    /** Its record runs {@code target} and has been RUNNING for {@code minHealthy} at {@code now}. */
    boolean updated(int target, java.time.Duration minHealthy, Instant now) {
        return state == ActualLrpState.RUNNING && version == target && !since.plus(minHealthy).isAfter(now);
    }
}
