package io.drover.rep.intake;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a placement must pass before a cell claims it: does it fit here. Pure. (Whether it is still current is the claim's
 * own rule, checked by {@code ActualLrp.claim} in the claim's transaction.)
 */
public final class PlacementChecks {

    private PlacementChecks() {
    }

    /** Admits candidates in order while they fit what is left; the rest get the auctioneer's wording of why not. */
    public static Admission admit(Map<ActualLrpKey, Resources> candidates, Resources available) {
        List<ActualLrpKey> accepted = new ArrayList<>();
        Map<ActualLrpKey, String> rejected = new LinkedHashMap<>();
        Resources left = available;
        for (Map.Entry<ActualLrpKey, Resources> c : candidates.entrySet()) {
            String lacking = lacking(left, c.getValue());
            if (lacking.isEmpty()) {
                accepted.add(c.getKey());
                left = left.minus(c.getValue());
            } else {
                rejected.put(c.getKey(), "insufficient resources: " + lacking);
            }
        }
        return new Admission(accepted, rejected);
    }

    /** The resources {@code need} asks for beyond {@code available}, comma-separated; empty when it fits. */
    public static String lacking(Resources available, Resources need) {
        return available.lacking(need);
    }

    /** Which candidates a cell takes, and why it turns the others away. */
    public record Admission(List<ActualLrpKey> accepted, Map<ActualLrpKey, String> rejected) {
    }
}
