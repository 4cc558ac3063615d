package io.drover.model.lrp;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The instance slots one lifecycle operation loaded, by key: each key's record and twin, read in one query, as an
 * {@link InstanceSlot} (a key with neither row has an empty slot, which a create fills).
 */
final class Slots {

    private final Map<ActualLrpKey, InstanceSlot> byKey;

    private Slots(Map<ActualLrpKey, InstanceSlot> byKey) {
        this.byKey = byKey;
    }

    /**
     * The slots of {@code keys}: those this transaction loaded already as they are now (in its {@link ChangeLog}), the
     * others read in one query.
     */
    static Slots load(ActualLrpStore store, Collection<ActualLrpKey> keys, Instant now, CrashRestartPolicy policy,
            Supplier<UUID> ids, ChangeLog changes) {
        List<ActualLrpKey> unread = keys.stream().filter(k -> !changes.loaded.containsKey(k)).distinct().toList();
        Map<ActualLrpKey, ActualLrpStore.Rows> rows = store.loadSlots(unread, changes.tookItsId);
        for (ActualLrpKey key : unread) {
            ActualLrpStore.Rows r = rows.get(key);
            changes.loaded.put(key, new InstanceSlot(key, r == null ? null : r.record(), r == null ? null : r.twin(),
                    now, policy, ids, changes));
        }
        Map<ActualLrpKey, InstanceSlot> slots = new LinkedHashMap<>();
        keys.forEach(k -> slots.putIfAbsent(k, changes.loaded.get(k)));
        return new Slots(slots);
    }

    InstanceSlot get(ActualLrpKey key) {
        return byKey.get(key);
    }

    /** The cells among those owning these slots' rows (records and twins) whose presence has not expired. */
    Set<String> liveCells(ActualLrpStore store, Instant now) {
        return store.liveCells(byKey.values().stream().flatMap(InstanceSlot::rows).filter(ActualLrp::isOwned)
                .map(ActualLrp::cellId).distinct().toList(), now);
    }
}
