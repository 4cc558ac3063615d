package io.drover.model.lrp;

import java.util.UUID;

/**
 * A deployment's request to roll one slot, guarded by what its deployer read: the record's row version then
 * ({@code seenVersion}, a modification tag's index; negative: not checked) and the deployment it acts for (null: none).
 * The roll applies only while the record is still at that version and the deployment still RUNNING, so a deployer that
 * decided from a read never stops an instance that has just turned RUNNING, nor rolls on after a pause or a cancel.
 */
public record RollRequest(long seenVersion, UUID deploymentId) {

    /** A roll that checks nothing: for callers that decide under the same transaction. */
    public static final RollRequest UNCHECKED = new RollRequest(-1, null);
}
