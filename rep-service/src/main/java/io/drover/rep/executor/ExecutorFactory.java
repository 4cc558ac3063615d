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

    /**
     * Makes the executor of a cell's tasks: run-once containers kept apart from the cell's instances (their own
     * directory, adoption and events), so neither side mistakes the other's containers for its own. A task's container
     * ends on its own when its action does (see {@link RunOnce}).
     */
    default Executor createForTasks(String cellId, String address, Resources capacity) {
        return create(cellId + TASKS_SUFFIX, address, capacity);
    }

    /** What tells the executor of a cell's tasks from the cell's own in names and directories. */
    String TASKS_SUFFIX = ".tasks";

    /** How the executors it makes isolate and measure their containers; the cells register it with their presence. */
    default CellIsolation isolation() {
        return CellIsolation.UNKNOWN;
    }
}
