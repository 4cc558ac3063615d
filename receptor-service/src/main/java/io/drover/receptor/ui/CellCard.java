package io.drover.receptor.ui;

import io.drover.model.cell.Cell;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.read.Tallies;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** One cell as its card shows it: where it is, how full it is (percent of each resource) and what it carries. */
public record CellCard(String cellId, String zone, String address, String state, String heartbeatAgo, List<Bar> bars,
        Map<ActualLrpState, Long> byState, long instances, List<Mark> sample) {

    static CellCard of(Cell cell, Resources used, Tallies.CellTally carried, Instant now) {
        Resources capacity = cell.capacity();
        return new CellCard(cell.cellId(), cell.zone(), cell.registration().address(), cell.state().name(),
                Display.ago(cell.heartbeatAt(), now), List.of(new Bar("memory", used.memoryMb(), capacity.memoryMb(),
                        "MB"), new Bar("disk", used.diskMb(), capacity.diskMb(), "MB"),
                        new Bar("containers", used.containers(), capacity.containers(), "")),
                carried.byState(), carried.total(), carried.sample().stream().map(Mark::of).toList());
    }

    /** The instances the card does not draw. */
    public long undrawn() {
        return Math.max(0, instances - sample.size());
    }

    /**
     * One instance drawn on the card, its class and title made here: a card page draws about a thousand of them, and a
     * template expression concatenating strings for each costs more than the rest of the page.
     */
    public record Mark(String css, String title) {

        static Mark of(Tallies.InstanceMark mark) {
            return new Mark("i s-" + mark.state(), mark.processGuid() + "/" + mark.index() + " " + mark.state());
        }
    }

    /** One resource's use: {@code used} of {@code capacity} in {@code unit}. */
    public record Bar(String name, long used, long capacity, String unit) {

        public int percent() {
            return Display.percent(used, capacity);
        }

        public String label() {
            String suffix = unit.isEmpty() ? "" : " " + unit;
            return Display.count(used) + " of " + Display.count(capacity) + suffix;
        }
    }
}
