package io.drover.auctioneer.scheduling;

import io.drover.model.lrp.ActualLrpKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Decides one auction round (SPEC 7), with no I/O. Work is ordered (every index 0 first, then the rest; larger memory
 * first within each), then each instance in turn is filtered to the cells that list its rootfs, accept its placement
 * tags and still fit it, narrowed to the zones holding the fewest instances of its LRP, and given to the cell with the
 * lowest score (ties to the lowest cell id, so the same input gives the same schedule). The placement is reserved at
 * once, so the round never overcommits a cell.
 *
 * <p>Zone balance comes before the per-cell spread (as in Diego): an LRP's instances are spread over zones first and
 * over the cells of the chosen zones second.
 */
public final class Scheduler {

    /** Every index 0 first (each LRP gets one instance before any gets a second), then larger memory, then disk. */
    static final Comparator<Work> ORDER = Comparator.<Work>comparingInt(w -> w.key().index() == 0 ? 0 : 1)
            .thenComparing(Comparator.comparingInt(Work::memoryMb).reversed())
            .thenComparing(Comparator.comparingInt(Work::diskMb).reversed())
            .thenComparing(Work::key);

    private static final List<String> RESOURCES = List.of("memory", "disk", "containers");

    private final int maxInFlightStarts;

    /** {@code maxInFlightStarts}: global cap on containers starting at once; 0 or less means unlimited. */
    public Scheduler(int maxInFlightStarts) {
        this.maxInFlightStarts = maxInFlightStarts;
    }

    public static Scheduler unlimited() {
        return new Scheduler(0);
    }

    public Schedule schedule(Collection<Work> work, Collection<CellLoad> cells) {
        if (cells.isEmpty()) {
            Map<ActualLrpKey, String> failures = new LinkedHashMap<>();
            ordered(work).forEach(w -> failures.put(w.key(), PlacementErrors.NO_CELLS));
            return new Schedule(new LinkedHashMap<>(), failures);
        }
        return schedule(work, new Fleet(List.copyOf(cells)));
    }

    /** The round on {@code fleet}, which its reservations change (tests look at what the round built in it). */
    Schedule schedule(Collection<Work> work, Fleet fleet) {
        List<Work> ordered = ordered(work);
        Map<ActualLrpKey, String> placements = new LinkedHashMap<>();
        Map<ActualLrpKey, String> failures = new LinkedHashMap<>();
        // only an LRP's instances are spread from their siblings: a task consults no count
        fleet.spreadsOf(ordered.stream().filter(Work::spread).map(Work::processGuid).collect(Collectors.toSet()));
        Compatibility compatibility = new Compatibility(fleet);
        CellPicker picker = new CellPicker(fleet);
        for (Work w : ordered) {
            if (maxInFlightStarts > 0 && fleet.startingTotal() >= maxInFlightStarts) {
                failures.put(w.key(), PlacementErrors.IN_FLIGHT_LIMIT);
                continue;
            }
            Candidates candidates = compatibility.candidates(w);
            if (candidates.error != null) {
                failures.put(w.key(), candidates.error);
                continue;
            }
            int cell = picker.pick(candidates, w);
            if (cell < 0) {
                failures.put(w.key(), insufficientResources(fleet, candidates, w));
            } else {
                fleet.reserve(cell, w);
                placements.put(w.key(), fleet.cellId(cell));
            }
        }
        return new Schedule(placements, failures);
    }

    private static List<Work> ordered(Collection<Work> work) {
        List<Work> ordered = new ArrayList<>(work);
        ordered.sort(ORDER);
        return ordered;
    }

    /**
     * Lists every resource that no candidate had enough of. When each resource was free somewhere but never all on one
     * cell, lists every resource some candidate lacked, so the message is never empty.
     */
    static String insufficientResources(Fleet fleet, Candidates candidates, Work w) {
        boolean[] someHad = new boolean[3];
        boolean[] someLacked = new boolean[3];
        for (int[] zone : candidates.cellsByZone) {
            for (int cell : zone) {
                note(0, fleet.fitsMemory(cell, w), someHad, someLacked);
                note(1, fleet.fitsDisk(cell, w), someHad, someLacked);
                note(2, fleet.fitsContainer(cell), someHad, someLacked);
            }
        }
        boolean eachFoundSomewhere = someHad[0] && someHad[1] && someHad[2];
        List<String> missing = new ArrayList<>(3);
        for (int r = 0; r < RESOURCES.size(); r++) {
            if (eachFoundSomewhere ? someLacked[r] : !someHad[r]) {
                missing.add(RESOURCES.get(r));
            }
        }
        return PlacementErrors.insufficientResources(missing);
    }

    private static void note(int resource, boolean fits, boolean[] someHad, boolean[] someLacked) {
        someHad[resource] |= fits;
        someLacked[resource] |= !fits;
    }
}
