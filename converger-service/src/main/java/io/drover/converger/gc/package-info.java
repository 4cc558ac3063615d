/** Garbage collection (SPEC 6 rule 7): expired domains, old audit events and sent outbox rows, in bounded batches. */
package io.drover.converger.gc;
