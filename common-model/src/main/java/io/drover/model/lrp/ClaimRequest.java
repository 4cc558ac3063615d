package io.drover.model.lrp;

import io.drover.model.placement.Placement;

/**
 * A cell claims an instance slot. {@code placement} is set when the claim follows an auction result: the claim then
 * holds only while the record is still that placement (UNCLAIMED, placed on the owner's cell, same epoch and definition
 * version); null claims whatever the placement.
 */
public record ClaimRequest(InstanceOwner owner, Placement placement) {

    public static ClaimRequest of(InstanceOwner owner) {
        return new ClaimRequest(owner, null);
    }
}
