package io.drover.auctioneer.scheduling;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The round's in-memory view of the cells, in primitive arrays indexed by cell (sorted by cell id, so ties are broken
 * the same way every time). Every placement is reserved here at once, so a round never overcommits a cell.
 */
final class Fleet {

    final List<CellLoad> cells;
    private final int[] freeMemory;
    private final int[] freeDisk;
    private final int[] freeContainers;
    private final int[] usedMemory;
    private final int[] usedDisk;
    private final int[] usedContainers;
    private final double[] memoryScale;
    private final double[] diskScale;
    private final double[] containerScale;
    private final int[] starting;
    /** Score of each cell before placing anything: mean used fraction + 0.25 per starting container. */
    private final double[] load;
    private final List<List<Pool>> poolsOf;
    private final int[] zoneOf;
    private final List<String> zones = new ArrayList<>();
    private final Map<String, Spread> spreads = new HashMap<>();
    private int startingTotal;
    /** How many (cell, process guid) counts the cells hold in all. */
    private long entries;

    Fleet(List<CellLoad> loads) {
        cells = loads.stream().sorted(Comparator.comparing(CellLoad::cellId)).toList();
        int n = cells.size();
        freeMemory = new int[n];
        freeDisk = new int[n];
        freeContainers = new int[n];
        usedMemory = new int[n];
        usedDisk = new int[n];
        usedContainers = new int[n];
        memoryScale = new double[n];
        diskScale = new double[n];
        containerScale = new double[n];
        starting = new int[n];
        load = new double[n];
        poolsOf = new ArrayList<>(n);
        zoneOf = new int[n];
        Map<String, Integer> zoneIds = new HashMap<>();
        for (int i = 0; i < n; i++) {
            read(i, cells.get(i), zoneIds);
            poolsOf.add(new ArrayList<>(1));
        }
    }

    private void read(int i, CellLoad cell, Map<String, Integer> zoneIds) {
        var cap = cell.capacity();
        var used = cell.allocated();
        usedMemory[i] = used.memoryMb();
        usedDisk[i] = used.diskMb();
        usedContainers[i] = used.containers();
        freeMemory[i] = cap.memoryMb() - used.memoryMb();
        freeDisk[i] = cap.diskMb() - used.diskMb();
        freeContainers[i] = cap.containers() - used.containers();
        memoryScale[i] = scale(cap.memoryMb());
        diskScale[i] = scale(cap.diskMb());
        containerScale[i] = scale(cap.containers());
        starting[i] = cell.starting();
        startingTotal += cell.starting();
        load[i] = loadOf(i);
        zoneOf[i] = zoneIds.computeIfAbsent(cell.zone(), z -> {
            zones.add(z);
            return zones.size() - 1;
        });
        entries += cell.instancesByProcessGuid().size();
    }

    /** 1 / capacity; 0 marks a resource the cell does not offer at all (1/0 would be infinite). */
    private static double scale(int capacity) {
        return capacity > 0 ? 1.0 / capacity : 0.0;
    }

    int size() {
        return cells.size();
    }

    int zoneCount() {
        return zones.size();
    }

    int zoneOf(int cell) {
        return zoneOf[cell];
    }

    int startingTotal() {
        return startingTotal;
    }

    /** Where the work's siblings are: its LRP's {@link #spread}, or none at all for a task (consulting nothing). */
    Spread spreadOf(Work w) {
        return w.spread() ? spread(w.processGuid()) : Spread.NONE;
    }

    /** How many spreads this round has built (tests: a round of tasks builds none). */
    int spreadsBuilt() {
        return spreads.size();
    }

    /**
     * Where {@code processGuid}'s instances are, with this round's reservations. Built when first asked for, from every
     * cell's count, unless {@link #spreadsOf} built it: a round needs the spreads of the LRPs it places only, and a
     * round of tasks, or of a few LRPs on a fleet of thousands of LRPs, needs next to none.
     */
    Spread spread(String processGuid) {
        Spread spread = spreads.get(processGuid);
        if (spread == null) {
            spread = new Spread();
            for (int i = 0; i < cells.size(); i++) {
                Integer count = cells.get(i).instancesByProcessGuid().get(processGuid);
                if (count != null) {
                    spread.add(i, zoneOf[i], count);
                }
            }
            spreads.put(processGuid, spread);
        }
        return spread;
    }

    /**
     * Builds the spreads of {@code processGuids} in one pass over every cell's counts, when that costs fewer look-ups
     * than one per guid and cell ({@link #spread}); otherwise leaves them to be built when asked for. Called before any
     * reservation.
     */
    void spreadsOf(Set<String> processGuids) {
        if ((long) processGuids.size() * cells.size() <= entries) {
            return;
        }
        processGuids.forEach(g -> spreads.putIfAbsent(g, new Spread()));
        for (int i = 0; i < cells.size(); i++) {
            int cell = i;
            cells.get(i).instancesByProcessGuid().forEach((guid, count) -> {
                Spread spread = spreads.get(guid);
                if (spread != null) {
                    spread.add(cell, zoneOf[cell], count);
                }
            });
        }
    }

    boolean fitsMemory(int cell, Work w) {
        return freeMemory[cell] >= w.memoryMb();
    }

    boolean fitsDisk(int cell, Work w) {
        return freeDisk[cell] >= w.diskMb();
    }

    boolean fitsContainer(int cell) {
        return freeContainers[cell] >= 1;
    }

    boolean fits(int cell, Work w) {
        return freeContainers[cell] >= 1 && freeMemory[cell] >= w.memoryMb() && freeDisk[cell] >= w.diskMb();
    }

    /** Orders cells by their load, then by id: the order of a {@link Pool}. */
    Comparator<Integer> byLoad() {
        return (a, b) -> {
            int byLoad = Double.compare(load[a], load[b]);
            return byLoad != 0 ? byLoad : Integer.compare(a, b);
        };
    }

    /** The cell is in this pool: re-sort it there whenever it is reserved. */
    void enroll(int cell, Pool pool) {
        poolsOf.get(cell).add(pool);
    }

    /**
     * SPEC 7: mean used fraction after placement + 1000 per instance of this LRP here + 0.25 per starting container.
     * Computed as the cell's load plus what the instance adds, which is the same for every cell of one capacity (and
     * so keeps a pool's order the order of scores).
     */
    double score(int cell, Work w, int instancesHere) {
        double added = (w.memoryMb() * memoryScale[cell] + w.diskMb() * diskScale[cell] + containerScale[cell]) / 3.0;
        return load[cell] + added + 1000.0 * instancesHere;
    }

    private double loadOf(int cell) {
        return (fraction(usedMemory[cell], memoryScale[cell]) + fraction(usedDisk[cell], diskScale[cell])
                + fraction(usedContainers[cell], containerScale[cell])) / 3.0 + 0.25 * starting[cell];
    }

    /** A resource the cell does not offer at all counts as full whatever is placed (its scale is 0). */
    private static double fraction(int used, double scale) {
        return scale == 0.0 ? 1.0 : used * scale;
    }

    void reserve(int cell, Work w) {
        List<Pool> pools = poolsOf.get(cell);
        pools.forEach(p -> p.remove(cell));
        freeMemory[cell] -= w.memoryMb();
        freeDisk[cell] -= w.diskMb();
        freeContainers[cell] -= 1;
        usedMemory[cell] += w.memoryMb();
        usedDisk[cell] += w.diskMb();
        usedContainers[cell] += 1;
        starting[cell] += 1;
        startingTotal += 1;
        load[cell] = loadOf(cell);
        pools.forEach(p -> p.add(cell));
        if (w.spread()) {
            spread(w.processGuid()).add(cell, zoneOf[cell], 1);
        }
    }

    String cellId(int cell) {
        return cells.get(cell).cellId();
    }
}
