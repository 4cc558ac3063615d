package io.drover.model.placement;

import java.time.Instant;
import java.util.Objects;

/**
 * What the auctions last did with a record no cell owns yet (an UNCLAIMED instance slot, a PENDING task): the cell a
 * placement is in flight to and since when, or why no cell could take it. One value for instance slots and tasks:
 * immutable, each verb returns the next value, or this one when nothing changes (an exact repeat).
 */
public record PlacementState(String cellId, Instant placedAt, String error) {

    /** Never placed, no error. */
    public static final PlacementState NONE = new PlacementState(null, null, null);

    /** Placed on {@code cell} at {@code now}: in flight there, any earlier error cleared. */
    public PlacementState placedOn(String cell, Instant now) {
        Objects.requireNonNull(cell, "cell");
        return cell.equals(cellId) && error == null ? this : new PlacementState(cell, now, null);
    }

    /** No cell (or the cell it was placed on) could take it: nothing in flight, and why. */
    public PlacementState failed(String reason) {
        Objects.requireNonNull(reason, "error");
        return reason.equals(error) && cellId == null ? this : new PlacementState(null, null, reason);
    }

    /** The placement in flight dropped (for another auction); the error stays. */
    public PlacementState withdrawn() {
        return cellId == null ? this : new PlacementState(null, null, error);
    }

    /** Whether a placement is in flight to {@code cell}. */
    public boolean isOn(String cell) {
        return cell != null && cell.equals(cellId);
    }

    /** Whether a placement is in flight at all. */
    public boolean inFlight() {
        return cellId != null;
    }

    /** Where the placement in flight is, for a message: "placed on cell-1", or "not placed". */
    public String describe() {
        return cellId == null ? "not placed" : "placed on " + cellId;
    }
}
