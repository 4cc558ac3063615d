package io.drover.rep.presence;

import io.drover.model.cell.CellPresence;
import io.drover.model.cell.DrainOrder;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One heartbeat for every cell of this process, in one statement: a thousand simulated cells cost one write every
 * interval, not a thousand. Each cell hears how it went (an outage is logged once per cell; a beat refused because
 * another rep process took the cell over ends that cell's work) and the operator's drain order its row holds. It runs on a thread of its own, off the cells'
 * passes, so a cell whose work queues up (a burst, a slow database) does not look dead for it.
 */
public final class HeartbeatRound implements Runnable {

    private final CellPresence presence;
    private final List<Presence> cells;
    private final Supplier<Instant> intakeThrough;
    private final Duration ttl;
    private final String holder;

    /**
     * @param intakeThrough how far the process's intake has got (null: it cannot say yet)
     * @param holder this rep process's identity, the holder of its cells' presence locks
     */
    public HeartbeatRound(CellPresence presence, List<Presence> cells, Supplier<Instant> intakeThrough,
            Duration ttl, String holder) {
        this.presence = presence;
        this.holder = holder;
        this.cells = List.copyOf(cells);
        this.intakeThrough = intakeThrough;
        this.ttl = ttl;
    }

    @Override
    public void run() {
        Map<Presence, CellPresence.Heartbeat> beats = new LinkedHashMap<>();
        Instant through = intakeThrough.get();
        cells.forEach(c -> c.heartbeat(through).ifPresent(b -> beats.put(c, b)));
        RuntimeException failure = null;
        Map<String, CellPresence.Refusal> refused = new HashMap<>();
        Map<String, DrainOrder> orders = Map.of();
        try {
            CellPresence.Beats beaten = presence.beat(holder, List.copyOf(beats.values()), ttl);
            beaten.refused().forEach(r -> refused.put(r.cellId(), r));
            orders = beaten.drainOrders();
        } catch (RuntimeException e) {
            failure = e;
        }
        for (Map.Entry<Presence, CellPresence.Heartbeat> beat : beats.entrySet()) {
            String cellId = beat.getValue().registration().cellId();
            beat.getKey().reported(failure);
            CellPresence.Refusal refusal = refused.get(cellId);
            if (refusal != null) {
                beat.getKey().refused(refusal);
            } else if (failure == null) {
                beat.getKey().heard(orders.get(cellId));
            }
        }
    }
}
