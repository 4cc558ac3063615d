/** Cells over HTTP: presence, capacity and what is still available on each. */
package io.drover.receptor.cells;
