/** What a run recorded, one JSON line per entry: calls, events, probes, faults, callbacks, quiescent snapshots. */
package io.drover.verify.history;
