package io.drover.auctioneer.scheduling;

import io.drover.model.lrp.ActualLrpKey;
import java.util.Set;

/** One instance to place, with what its desired LRP needs: resources, rootfs and placement tags. */
public record Work(ActualLrpKey key, int memoryMb, int diskMb, String rootfs, Set<String> placementTags) {

    public Work {
        placementTags = placementTags == null ? Set.of() : Set.copyOf(placementTags);
    }

    public String processGuid() {
        return key.processGuid();
    }
}
