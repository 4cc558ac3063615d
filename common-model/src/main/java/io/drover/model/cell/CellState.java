package io.drover.model.cell;

/** ACTIVE cells take work; EVACUATING cells are draining and get nothing new. */
public enum CellState {
    ACTIVE, EVACUATING
}
