package io.drover.model.deployment;

import io.drover.model.lrp.ActualLrpState;
import java.time.Instant;

/**
 * One instance slot as the step function sees it: its record (null state when it has none), the definition version
 * and since of that record, and whether a twin kept by a deployment still serves the slot's old instance.
 */
public record Slot(int index, ActualLrpState state, int version, Instant since, int crashCount, boolean twin) {

    /** A slot with no record (retired, or removed after its stop) but perhaps a twin. */
    public static Slot missing(int index, boolean twin) {
        return new Slot(index, null, 0, null, 0, twin);
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
