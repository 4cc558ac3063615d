/**
 * Garbage collection (SPEC 6 rule 7): expired domains, old audit events, sent outbox rows, dead cells and the
 * tombstones of tasks deleted longer ago than their window, in bounded batches.
 */
package io.drover.converger.gc;
