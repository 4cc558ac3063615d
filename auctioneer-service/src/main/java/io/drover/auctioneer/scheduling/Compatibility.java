package io.drover.auctioneer.scheduling;

import io.drover.model.cell.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Indexes the fleet by rootfs once per round and caches the candidate cells of each (rootfs, placement tags) pair, so
 * a round with thousands of instances filters the fleet once per kind of work, not once per instance.
 *
 * <p>Rootfs matching is on the full rootfs string: a cell must list exactly the desired LRP's rootfs
 * ({@code preloaded:host}, {@code docker:///busybox}) among its providers.
 */
final class Compatibility {

    /** Pools smaller than this on average cost more to keep sorted than a scan of their cells. */
    private static final int MIN_POOL_SIZE = 8;

    private final Fleet fleet;
    private final Map<String, List<Integer>> cellsByRootfs = new HashMap<>();
    private final Map<Kind, Candidates> cache = new HashMap<>();

    Compatibility(Fleet fleet) {
        this.fleet = fleet;
        for (int i = 0; i < fleet.size(); i++) {
            for (String rootfs : fleet.cells.get(i).rootfsProviders()) {
                cellsByRootfs.computeIfAbsent(rootfs, r -> new ArrayList<>()).add(i);
            }
        }
    }

    Candidates candidates(Work w) {
        return cache.computeIfAbsent(new Kind(w.rootfs(), w.placementTags()), this::build);
    }

    private Candidates build(Kind kind) {
        List<Integer> withRootfs = cellsByRootfs.getOrDefault(kind.rootfs(), List.of());
        if (withRootfs.isEmpty()) {
            return Candidates.none(PlacementErrors.ROOTFS);
        }
        List<List<Integer>> byZone = new ArrayList<>();
        for (int z = 0; z < fleet.zoneCount(); z++) {
            byZone.add(new ArrayList<>());
        }
        boolean any = false;
        for (int cell : withRootfs) {
            if (fleet.cells.get(cell).acceptsTags(kind.tags())) {
                byZone.get(fleet.zoneOf(cell)).add(cell);
                any = true;
            }
        }
        if (!any) {
            return Candidates.none(PlacementErrors.placementTags(kind.tags()));
        }
        int[] zones = IntStream.range(0, byZone.size()).filter(z -> !byZone.get(z).isEmpty()).toArray();
        int[][] cells = new int[zones.length][];
        Pool[][] pools = new Pool[zones.length][];
        for (int i = 0; i < zones.length; i++) {
            cells[i] = byZone.get(zones[i]).stream().mapToInt(Integer::intValue).toArray();
            pools[i] = pools(cells[i]);
        }
        return new Candidates(zones, cells, pools);
    }

    /**
     * One pool per distinct capacity; every cell is enrolled so the fleet re-sorts it when it is reserved. A zone whose
     * cells are nearly all different gets no pools (null): scanning its cells is cheaper than keeping them sorted.
     */
    private Pool[] pools(int[] cells) {
        Map<Resources, List<Integer>> byCapacity = new LinkedHashMap<>();
        for (int cell : cells) {
            byCapacity.computeIfAbsent(fleet.cells.get(cell).capacity(), c -> new ArrayList<>()).add(cell);
        }
        if (byCapacity.size() * MIN_POOL_SIZE > cells.length) {
            return null;
        }
        return byCapacity.values().stream().map(members -> {
            Pool pool = new Pool(fleet);
            members.forEach(cell -> {
                pool.add(cell);
                fleet.enroll(cell, pool);
            });
            return pool;
        }).toArray(Pool[]::new);
    }

    private record Kind(String rootfs, Set<String> tags) {
    }
}
