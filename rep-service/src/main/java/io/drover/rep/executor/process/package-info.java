/**
 * The process executor: runs each container as a real OS process tree (own session, own working directory, host
 * ports, capped log files and a journal the API serves), in a cgroup of its own where the machine allows it, enforces
 * and measures its limits (by the kernel, or by sampling /proc), polls its health, and re-adopts trees after a rep
 * restart.
 */
package io.drover.rep.executor.process;
