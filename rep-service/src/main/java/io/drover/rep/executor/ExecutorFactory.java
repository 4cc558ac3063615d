package io.drover.rep.executor;

import io.drover.model.cell.CellIsolation;
import io.drover.model.cell.Resources;

/**
 * Makes the executor of one cell. The process executor's configuration provides one when
 * {@code drover.rep.executor=process} (the default); the simulated executor's when it is {@code simulated}.
 */
@FunctionalInterface
public interface ExecutorFactory {

    /**
     * @param cellId the cell the executor serves (one rep process may host many simulated cells)
     * @param address the address other machines reach this cell's containers on
     * @param capacity what the cell advertises; the executor refuses containers beyond it
     */
    Executor create(String cellId, String address, Resources capacity);

    /** How the executors it makes isolate and measure their containers; the cells register it with their presence. */
    default CellIsolation isolation() {
        return CellIsolation.UNKNOWN;
    }
}
