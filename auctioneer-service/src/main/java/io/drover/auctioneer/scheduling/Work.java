package io.drover.auctioneer.scheduling;

import io.drover.model.lrp.ActualLrpKey;
import java.util.Set;

/**
 * One instance to place, with what its desired LRP needs: resources, rootfs and placement tags; {@code spread} says
 * whether it is spread from its siblings (an LRP's instances are, over zones and cells: SPEC 7). A task is work of its
 * own ({@link #task}): it has no siblings, so placing it neither reads nor grows any per-guid count.
 */
public record Work(ActualLrpKey key, int memoryMb, int diskMb, String rootfs, Set<String> placementTags,
        boolean spread) {

    public Work {
        placementTags = placementTags == null ? Set.of() : Set.copyOf(placementTags);
    }

    /** An instance of an LRP, spread from the LRP's other instances. */
    public Work(ActualLrpKey key, int memoryMb, int diskMb, String rootfs, Set<String> placementTags) {
        this(key, memoryMb, diskMb, rootfs, placementTags, true);
    }

    /** A task: keyed by its guid at index 0, with no siblings to spread from. */
    public static Work task(String taskGuid, int memoryMb, int diskMb, String rootfs, Set<String> placementTags) {
        return new Work(ActualLrpKey.of(taskGuid, 0), memoryMb, diskMb, rootfs, placementTags, false);
    }

    public String processGuid() {
        return key.processGuid();
    }
}
