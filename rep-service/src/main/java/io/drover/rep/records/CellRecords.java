package io.drover.rep.records;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.read.ActualLrpOwner;
import io.drover.model.read.ActualLrpOwners;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The actual LRP records a rep decides on, read through the read model: those a cell owns, and given slots. */
public class CellRecords {

    private final ActualLrpOwners owners;

    public CellRecords(ActualLrpOwners owners) {
        this.owners = owners;
    }

    /** The records owned by (or, for a moment, claimed on) this cell. */
    public List<RecordView> ownedBy(String cellId) {
        return owners.ownedBy(cellId).stream().map(CellRecords::view).toList();
    }

    /**
     * The twins this cell holds, of a drain (SPEC 8.5) or a deployment (SPEC 14): always RUNNING, owned by the old
     * instance.
     */
    public List<RecordView> evacuatingOn(String cellId) {
        return owners.evacuatingOn(cellId).stream().map(CellRecords::view).toList();
    }

    public Map<ActualLrpKey, RecordView> byKeys(Collection<ActualLrpKey> keys) {
        Map<ActualLrpKey, RecordView> found = new HashMap<>();
        owners.of(keys).forEach((key, owner) -> found.put(key, view(owner)));
        return found;
    }

    private static RecordView view(ActualLrpOwner o) {
        return new RecordView(o.key(), o.state(), o.instanceGuid(), o.cellId(), o.placedCellId(), o.epoch(),
                o.stopRequested(), o.keptForDeployment());
    }
}
