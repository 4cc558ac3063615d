package io.drover.auctioneer.scheduling;

import io.drover.model.lrp.ActualLrpKey;
import java.util.Collections;
import java.util.Map;

/** The outcome of one round: the cell chosen for each placed instance, the SPEC 7 error for each one that was not. */
public record Schedule(Map<ActualLrpKey, String> placements, Map<ActualLrpKey, String> failures) {

    public Schedule {
        placements = Collections.unmodifiableMap(placements);
        failures = Collections.unmodifiableMap(failures);
    }
}
