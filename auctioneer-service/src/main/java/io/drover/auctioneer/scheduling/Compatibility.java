package io.drover.auctioneer.scheduling;

import java.util.ArrayList;
import java.util.HashMap;
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
        int[] zones = IntStream.range(0, byZone.size()).filter(z -> !byZone.get(z).isEmpty())
                .toArray();
        int[][] cells = new int[zones.length][];
        for (int i = 0; i < zones.length; i++) {
            cells[i] = byZone.get(zones[i]).stream().mapToInt(Integer::intValue).toArray();
        }
        return new Candidates(null, zones, cells);
    }

    private record Kind(String rootfs, Set<String> tags) {
    }
}
