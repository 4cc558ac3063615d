package io.drover.model.cell;

import java.time.Instant;

/**
 * A cell as a {@code cell_changed} event carries it (SPEC 18): its id, zone, address, its state as operators see it
 * ({@link Cell#state()}) and, while an operator's drain order stands, the order.
 */
public record CellSnapshot(String cellId, String zone, String address, CellState state, Drain drain) {

    /** When the drain was asked, until when the instances may take to move, and who asked. */
    public record Drain(Instant startedAt, Instant deadlineAt, String requestedBy) {
    }

    public static CellSnapshot of(Cell cell) {
        DrainOrder order = cell.drain();
        return new CellSnapshot(cell.cellId(), cell.zone(), cell.registration().address(), cell.state(),
                order == null ? null : new Drain(order.requestedAt(), order.deadlineAt(), order.requestedBy()));
    }
}
