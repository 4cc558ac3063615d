/**
 * Faults by seed: a plan of what to break and when, and the means to break it on the local cluster (a rep killed, a
 * cell drained, PostgreSQL restarted, the broker stopped, records lost or repeated at the consumers, a workload
 * killed, a leader frozen).
 */
package io.drover.verify.fault;
