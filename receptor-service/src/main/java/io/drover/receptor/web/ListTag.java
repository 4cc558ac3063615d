package io.drover.receptor.web;

import java.util.UUID;

/**
 * A weak entity tag built from the rows of a list as they are read: a 64-bit FNV-1a hash over every row's key, epoch
 * and version. Each change of a row increments its version and a re-created row has a new epoch, so the tag changes
 * whenever the list's content does (barring a 64-bit collision).
 */
public final class ListTag {

    private static final long PRIME = 0x100000001b3L;

    private long hash = 0xcbf29ce484222325L;
    private int rows;

    /** Adds one row. */
    public ListTag add(String processGuid, int index, UUID epoch, long version) {
        for (int i = 0; i < processGuid.length(); i++) {
            mix(processGuid.charAt(i));
        }
        mix(index);
        mix(epoch.getMostSignificantBits());
        mix(epoch.getLeastSignificantBits());
        mix(version);
        rows++;
        return this;
    }

    /** {@code W/"<kind>-<rows>-<hash>"}. */
    public String weakTag(String kind) {
        return EntityTags.weak(kind + "-" + rows + "-" + Long.toHexString(hash));
    }

    private void mix(long value) {
        hash ^= value;
        hash *= PRIME;
    }
}
