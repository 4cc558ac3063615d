package io.drover.model.lrp;

import java.util.Objects;

/**
 * Who owns an incarnation: its {@code instance_guid} and the cell running it (Diego's ActualLRPInstanceKey).
 * {@link #NONE} is the empty owner that unclaim and the converger use.
 */
public record InstanceOwner(String instanceGuid, String cellId) {

    public static final InstanceOwner NONE = new InstanceOwner(null, null);

    public InstanceOwner {
        if ((instanceGuid == null) != (cellId == null)) {
            throw new IllegalArgumentException("instance_guid and cell_id must be both set or both empty");
        }
    }

    public static InstanceOwner of(String instanceGuid, String cellId) {
        return new InstanceOwner(Objects.requireNonNull(instanceGuid), Objects.requireNonNull(cellId));
    }

    public boolean isEmpty() {
        return instanceGuid == null;
    }
}
