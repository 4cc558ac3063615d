package io.drover.model.cell;

import java.time.Instant;

/**
 * An operator's request that a cell drain (SPEC 18), as stored on its row: when it was asked, until when the cell's
 * instances may take to move (then what still runs there is stopped, its tasks failed), and who asked. Only the API
 * writes it ({@link CellDrains}); the cell's rep reads it back with every heartbeat.
 */
public record DrainOrder(Instant requestedAt, Instant deadlineAt, String requestedBy) {
}
