/**
 * The cell's internal log server: instance and task logs (tail, follow, stream filter) for the receptor, behind a
 * shared secret; and the last lines of the containers that are gone, kept for a while
 * ({@link io.drover.rep.executor.KeptLogs}).
 */
package io.drover.rep.logs;
