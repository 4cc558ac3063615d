package io.drover.model.read;

import io.drover.model.cell.Resources;
import java.util.Map;

/**
 * What one cell carries (see {@link CellLoads}): the resources used by its instances (CLAIMED or RUNNING on it, or
 * placed on it and not yet claimed), its twins and its tasks; how many of its containers are still starting (instances
 * not RUNNING, tasks placed and not started); and how many instances of each process_guid it holds (instances only: the
 * spread of an LRP counts neither twins nor tasks).
 */
public record CellAllocation(Resources used, int starting, Map<String, Integer> instancesByProcessGuid) {

    public CellAllocation {
        instancesByProcessGuid = Map.copyOf(instancesByProcessGuid);
    }
}
