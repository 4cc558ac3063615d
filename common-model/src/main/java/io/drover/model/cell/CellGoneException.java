package io.drover.model.cell;

import java.time.Instant;

/** The cell's rep is gone (its presence expired): nobody is there to move its instances off. */
public class CellGoneException extends RuntimeException {

    public CellGoneException(String cellId, Instant expiredAt) {
        super("cell " + cellId + " is gone: its presence expired at " + expiredAt
                + " (its instances are replaced elsewhere already; a drain needs a live rep)");
    }
}
