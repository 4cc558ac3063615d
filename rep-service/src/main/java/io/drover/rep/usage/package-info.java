/**
 * Per-instance usage: sampled from every cell's executor every few seconds, written in one statement per round and
 * exported as bounded gauges.
 */
package io.drover.rep.usage;
