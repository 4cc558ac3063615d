package io.drover.auctioneer.scheduling;

import io.drover.model.cell.Cell;
import io.drover.model.cell.Resources;
import java.util.Map;
import java.util.Set;

/**
 * A schedulable cell as the auction sees it: what it offers and what it already carries (instances CLAIMED or RUNNING
 * on it plus placements still in flight), how many of each process_guid it holds and how many containers are starting
 * on it (CLAIMED or placed but not yet running).
 */
public record CellLoad(String cellId, String zone, Resources capacity, Resources allocated, Set<String> rootfsProviders,
        Set<String> requiredTags, Set<String> optionalTags, Map<String, Integer> instancesByProcessGuid, int starting) {

    public CellLoad {
        allocated = allocated == null ? Resources.NONE : allocated;
        rootfsProviders = Set.copyOf(rootfsProviders);
        requiredTags = requiredTags == null ? Set.of() : Set.copyOf(requiredTags);
        optionalTags = optionalTags == null ? Set.of() : Set.copyOf(optionalTags);
        instancesByProcessGuid = instancesByProcessGuid == null ? Map.of() : Map.copyOf(instancesByProcessGuid);
    }

    public static CellLoad of(Cell cell, Resources allocated, Map<String, Integer> instancesByProcessGuid,
            int starting) {
        var r = cell.registration();
        return new CellLoad(r.cellId(), r.zone(), r.capacity(), allocated, Set.copyOf(r.rootfsProviders()),
                Set.copyOf(r.placementTags()), Set.copyOf(r.optionalPlacementTags()), instancesByProcessGuid, starting);
    }

    /** An empty cell, for tests and tools. */
    public static CellLoad empty(String cellId, String zone, Resources capacity, Set<String> rootfsProviders) {
        return new CellLoad(cellId, zone, capacity, Resources.NONE, rootfsProviders, Set.of(), Set.of(), Map.of(), 0);
    }

    boolean acceptsTags(Set<String> requested) {
        if (!requested.containsAll(requiredTags)) {
            return false;
        }
        for (String tag : requested) {
            if (!requiredTags.contains(tag) && !optionalTags.contains(tag)) {
                return false;
            }
        }
        return true;
    }
}
