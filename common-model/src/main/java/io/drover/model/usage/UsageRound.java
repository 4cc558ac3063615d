package io.drover.model.usage;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What one rep writes after one sampling round, in one statement.
 *
 * @param cellIds the cells of the rep process
 * @param upserts figures that are new or changed since the rep last wrote them (every instance when {@code full})
 * @param removed instances the rep wrote before and holds no more
 * @param full {@code upserts} lists every instance the cells hold: any other row of these cells is deleted, and rows of
 *     cells that are no longer live are swept as well (a rep does this on its first round and now and then)
 */
public record UsageRound(List<String> cellIds, List<InstanceUsage> upserts, Set<String> removed, boolean full) {

    public UsageRound {
        cellIds = List.copyOf(cellIds);
        upserts = List.copyOf(upserts);
        Set<String> written = upserts.stream().map(InstanceUsage::instanceGuid).collect(Collectors.toSet());
        removed = removed.stream().filter(guid -> !written.contains(guid)).collect(Collectors.toUnmodifiableSet());
    }

    public static UsageRound of(Collection<String> cellIds, List<InstanceUsage> upserts, Set<String> removed,
            boolean full) {
        return new UsageRound(List.copyOf(cellIds), upserts, removed, full);
    }

    /** A round that would change nothing: no statement is sent. */
    public boolean isEmpty() {
        return !full && upserts.isEmpty() && removed.isEmpty();
    }
}
