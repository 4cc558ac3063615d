package io.drover.rep.cell;

import io.drover.model.cell.Resources;

/** What a cell has promised to its containers, instances and tasks alike, so a placement is checked against the rest. */
public interface CellCapacity {

    Resources available();

    void reserve(String instanceGuid, Resources need);

    void release(String instanceGuid);
}
