package io.drover.model.read;

import io.drover.model.cell.Resources;
import java.util.Map;

/**
 * What one cell carries: the resources its instances use (CLAIMED or RUNNING on it, or placed on it and not yet
 * claimed), how many of them are still starting (not RUNNING), and how many instances of each process_guid it holds.
 */
public record CellAllocation(Resources used, int starting, Map<String, Integer> instancesByProcessGuid) {

    public CellAllocation {
        instancesByProcessGuid = Map.copyOf(instancesByProcessGuid);
    }
}
