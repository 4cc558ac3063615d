package io.drover.model.cell;

/**
 * ACTIVE cells take work; EVACUATING cells are draining and get nothing new; DRAINED cells finished an operator's
 * drain (SPEC 18): nothing runs there, and they stay, heartbeating and taking no work, until they are undrained.
 */
public enum CellState {
    ACTIVE, EVACUATING, DRAINED
}
