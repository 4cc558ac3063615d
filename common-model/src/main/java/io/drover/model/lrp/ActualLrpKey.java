package io.drover.model.lrp;

import java.io.Serializable;
import java.util.Objects;

/** Identifies one instance slot of a desired LRP: {@code (process_guid, index)}. */
public final class ActualLrpKey implements Serializable, Comparable<ActualLrpKey> {

    private final String processGuid;
    private final int index;

    public ActualLrpKey(String processGuid, int index) {
        this.processGuid = Objects.requireNonNull(processGuid, "processGuid");
        if (index < 0) {
            throw new IllegalArgumentException("index must be >= 0: " + index);
        }
        this.index = index;
    }

    public static ActualLrpKey of(String processGuid, int index) {
        return new ActualLrpKey(processGuid, index);
    }

    public String processGuid() {
        return processGuid;
    }

    public int index() {
        return index;
    }

    @Override
    public int compareTo(ActualLrpKey other) {
        int byGuid = processGuid.compareTo(other.processGuid);
        return byGuid != 0 ? byGuid : Integer.compare(index, other.index);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ActualLrpKey other && index == other.index && processGuid.equals(other.processGuid);
    }

    @Override
    public int hashCode() {
        return processGuid.hashCode() * 31 + index;
    }

    @Override
    public String toString() {
        return processGuid + "." + index;
    }
}
