package io.drover.rep.cell;

import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;

/** Everything one cell agent needs to know about itself: what it advertises and its clocks. */
public record CellSettings(CellRegistration registration, RepProperties.Timing timing, int batchSize) {

    public String cellId() {
        return registration.cellId();
    }

    public Resources capacity() {
        return registration.capacity();
    }

    public String address() {
        return registration.address();
    }

    /** The same cell, advertising the log server at {@code endpoint} (null: none). */
    public CellSettings withLogEndpoint(String endpoint) {
        return new CellSettings(registration.withLogEndpoint(endpoint), timing, batchSize);
    }
}
