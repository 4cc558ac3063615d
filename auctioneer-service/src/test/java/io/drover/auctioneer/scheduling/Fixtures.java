package io.drover.auctioneer.scheduling;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import java.util.Map;
import java.util.Set;

/** Small builders for scheduler tests. */
final class Fixtures {

    static final String ROOTFS = "preloaded:host";

    private Fixtures() {
    }

    static Work work(String guid, int index, int memoryMb) {
        return new Work(ActualLrpKey.of(guid, index), memoryMb, 100, ROOTFS, Set.of());
    }

    static Work work(String guid, int index, int memoryMb, int diskMb) {
        return new Work(ActualLrpKey.of(guid, index), memoryMb, diskMb, ROOTFS, Set.of());
    }

    static Work tagged(String guid, int index, String... tags) {
        return new Work(ActualLrpKey.of(guid, index), 128, 100, ROOTFS, Set.of(tags));
    }

    static CellLoad cell(String id, String zone) {
        return CellLoad.empty(id, zone, new Resources(4096, 10_000, 100), Set.of(ROOTFS));
    }

    static CellLoad cell(String id, String zone, Resources capacity) {
        return CellLoad.empty(id, zone, capacity, Set.of(ROOTFS));
    }

    static CellLoad loaded(String id, String zone, Resources capacity, Resources allocated) {
        return new CellLoad(id, zone, capacity, allocated, Set.of(ROOTFS), Set.of(), Set.of(), Map.of(), 0);
    }

    static CellLoad holding(String id, String zone, String guid, int instances) {
        return new CellLoad(id, zone, new Resources(4096, 10_000, 100), new Resources(128 * instances, 0, instances),
                Set.of(ROOTFS), Set.of(), Set.of(), Map.of(guid, instances), 0);
    }

    static CellLoad starting(String id, String zone, int starting) {
        return new CellLoad(id, zone, new Resources(4096, 10_000, 100), Resources.NONE, Set.of(ROOTFS), Set.of(),
                Set.of(), Map.of(), starting);
    }

    static CellLoad tags(String id, Set<String> required, Set<String> optional) {
        return new CellLoad(id, "z1", new Resources(4096, 10_000, 100), Resources.NONE, Set.of(ROOTFS), required,
                optional, Map.of(), 0);
    }

    static ActualLrpKey key(String guid, int index) {
        return ActualLrpKey.of(guid, index);
    }
}
