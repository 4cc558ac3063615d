/** Executors run containers for a cell: the process executor (real OS process trees) and the simulated one (scale tests). */
package io.drover.rep.executor;
