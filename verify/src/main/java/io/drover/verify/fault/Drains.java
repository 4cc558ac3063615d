package io.drover.verify.fault;

/**
 * How a cell is drained. Today a drain is an operator's act on the cell's machine: the rep's loopback admin port
 * ({@code POST /evacuate?cell=<id>}, {@link AdminPortDrains}) or SIGTERM. SPEC 18 adds {@code POST
 * /v1/cells/{cell_id}/drain} to the public API; once the receptor serves it, an implementation of this interface over
 * that call is the seam to drive drains through the API instead ({@code --drains=api}).
 */
public interface Drains {

    /** Starts draining {@code cell}; false when it could not be asked. */
    boolean drain(int rep, String cell);

    /** Makes a drained cell take work again (with the admin port: its rep is started again). */
    void undrain(int rep, String cell);
}
