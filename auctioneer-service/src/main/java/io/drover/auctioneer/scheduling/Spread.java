package io.drover.auctioneer.scheduling;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntConsumer;

/** Where one process_guid's instances are: a count per cell and per zone (both sparse: most cells hold none). */
final class Spread {

    /** The spread of work that has no siblings (a task): empty everywhere, and never added to. */
    static final Spread NONE = new Spread();

    private final Map<Integer, Integer> byCell = new HashMap<>();
    private int[] byZone = new int[4];

    void add(int cell, int zone, int count) {
        if (this == NONE) {
            throw new IllegalStateException("work without siblings has no spread to add to");
        }
        byCell.merge(cell, count, Integer::sum);
        if (zone >= byZone.length) {
            byZone = Arrays.copyOf(byZone, Math.max(zone + 1, byZone.length * 2));
        }
        byZone[zone] += count;
    }

    int inZone(int zone) {
        return zone < byZone.length ? byZone[zone] : 0;
    }

    /** Every cell holding at least one instance of this LRP. */
    void forEachCell(IntConsumer action) {
        byCell.keySet().forEach(action::accept);
    }

    /** Writes this LRP's count per cell into a dense scratch array, so the scan reads an array, not a map. */
    void writeTo(int[] perCell) {
        byCell.forEach((cell, count) -> perCell[cell] = count);
    }

    /** Undoes {@link #writeTo}: the scratch array is all zeros again. */
    void clear(int[] perCell) {
        byCell.keySet().forEach(cell -> perCell[cell] = 0);
    }
}
