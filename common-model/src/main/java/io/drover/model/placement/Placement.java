package io.drover.model.placement;

import java.util.Objects;
import java.util.UUID;

/**
 * One auction's placement of a record on a cell, as the cell presents it when it takes the record up (claims an
 * instance slot, starts a task): the cell, the epoch of the record it was made for (a record deleted and created again
 * has another) and the definition version that record wanted then (a slot rolled to another version since wants
 * another instance). The taking-up holds only while the record is still placed there, at the same epoch and version:
 * a redelivered or overtaken auction result never starts a second container, nor one of another definition.
 */
public record Placement(String cellId, UUID epoch, int definitionVersion) {

    public Placement {
        Objects.requireNonNull(cellId, "cellId");
        Objects.requireNonNull(epoch, "epoch");
    }

    /** Whether this is the placement in flight of a record of {@code epoch} at {@code definitionVersion}. */
    public boolean isCurrent(PlacementState state, UUID epoch, int definitionVersion) {
        return state.isOn(cellId) && this.epoch.equals(epoch) && this.definitionVersion == definitionVersion;
    }

    /** Why it is not: for the refusal's message. */
    public String whyNotCurrent(PlacementState state, UUID epoch, int definitionVersion) {
        if (!state.isOn(cellId)) {
            return state.describe();
        }
        if (!this.epoch.equals(epoch)) {
            return "the record was created again";
        }
        return "placed for definition version " + this.definitionVersion + ", the slot wants " + definitionVersion;
    }
}
