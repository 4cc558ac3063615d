package io.drover.rep.cell;

import io.drover.model.cell.Resources;
import java.util.HashMap;
import java.util.Map;

/**
 * What a cell has promised to its containers, instances and tasks alike, so a placement is checked
 * against what is really left.
 */
public final class Allocations implements CellCapacity {

    private final Resources capacity;
    private final Map<String, Resources> held = new HashMap<>();
    private Resources used = Resources.NONE;

    public Allocations(Resources capacity) {
        this.capacity = capacity;
    }

    @Override
    public synchronized void reserve(String instanceGuid, Resources need) {
        Resources before = held.put(instanceGuid, need);
        used = used.plus(need).minus(before == null ? Resources.NONE : before);
    }

    @Override
    public synchronized void release(String instanceGuid) {
        Resources before = held.remove(instanceGuid);
        if (before != null) {
            used = used.minus(before);
        }
    }

    @Override
    public synchronized Resources available() {
        return capacity.minus(used);
    }
}
