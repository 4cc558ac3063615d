package io.drover.model.lrp;

import java.util.UUID;

/**
 * A cell claims an instance slot. {@code placedEpoch} is set when the claim follows an auction result: the claim then
 * holds only while the record is still that placement (UNCLAIMED, placed on the owner's cell, same epoch); null claims
 * whatever the placement.
 */
public record ClaimRequest(InstanceOwner owner, UUID placedEpoch) {

    public static ClaimRequest of(InstanceOwner owner) {
        return new ClaimRequest(owner, null);
    }
}
