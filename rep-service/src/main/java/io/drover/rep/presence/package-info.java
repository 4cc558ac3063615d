/** SPEC 8.1: a cell's row in {@code cells}, kept alive by one heartbeat round for every cell of the process. */
package io.drover.rep.presence;
