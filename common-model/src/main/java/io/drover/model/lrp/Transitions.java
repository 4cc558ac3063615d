package io.drover.model.lrp;

import static io.drover.model.lrp.ActualLrpState.CLAIMED;
import static io.drover.model.lrp.ActualLrpState.CRASHED;
import static io.drover.model.lrp.ActualLrpState.RUNNING;
import static io.drover.model.lrp.ActualLrpState.UNCLAIMED;

/**
 * The one transition table of SPEC 3.2 (Diego's {@code AllowsTransitionTo}). "same" means the request's owner equals
 * the stored one, "empty" means the request carries no owner, "any" means either.
 */
public final class Transitions {

    private Transitions() {
    }

    /** Whether a record in {@code from}, owned by {@code stored}, may move to {@code to} at the request of {@code requester}. */
    public static boolean allows(ActualLrpState from, InstanceOwner stored, InstanceOwner requester, ActualLrpState to) {
        boolean same = stored.equals(requester);
        boolean empty = requester.isEmpty();
        return switch (from) {
            case UNCLAIMED -> to != CRASHED;
            case CLAIMED -> switch (to) {
                case UNCLAIMED -> empty;
                case CLAIMED, CRASHED -> same;
                case RUNNING -> true;
            };
            case RUNNING -> switch (to) {
                case UNCLAIMED -> empty;
                case CLAIMED, RUNNING, CRASHED -> same;
            };
            case CRASHED -> switch (to) {
                case UNCLAIMED -> empty;
                case CLAIMED, RUNNING -> same;
                case CRASHED -> false;
            };
        };
    }

    static void check(ActualLrpKey key, ActualLrpState from, InstanceOwner stored, InstanceOwner requester,
            ActualLrpState to) {
        if (!allows(from, stored, requester, to)) {
            String owner = stored.isEmpty() ? "no owner" : "owner " + stored.instanceGuid() + "@" + stored.cellId();
            String by = requester.isEmpty() ? "no owner" : requester.instanceGuid() + "@" + requester.cellId();
            throw new IllegalTransitionException(key,
                    "cannot go from " + from + " (" + owner + ") to " + to + " requested by " + by);
        }
    }

    /**
     * A placement exists only while a record is UNCLAIMED (SPEC 3.1): placing and failing a placement apply to
     * UNCLAIMED records alone. The SPEC 3.2 table cannot say this, since it lets anyone move an owned record back to
     * UNCLAIMED; placing must never do that.
     */
    static void checkPlacement(ActualLrpKey key, ActualLrpState from, String verb) {
        if (from != UNCLAIMED) {
            throw new IllegalTransitionException(key, "cannot " + verb + " in state " + from);
        }
    }

    static boolean isOwned(ActualLrpState state) {
        return state == CLAIMED || state == RUNNING;
    }

    static boolean isUnowned(ActualLrpState state) {
        return state == UNCLAIMED || state == CRASHED;
    }
}
