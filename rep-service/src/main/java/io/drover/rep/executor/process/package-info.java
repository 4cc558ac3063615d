/**
 * The process executor: runs each container as a real OS process tree (own session, own working directory, host
 * ports, capped log files), watches its memory, pids and health through /proc, and re-adopts trees after a rep restart.
 */
package io.drover.rep.executor.process;
