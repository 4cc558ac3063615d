/** Cells over HTTP: presence, capacity, what is still available on each, and how each isolates what it runs. */
package io.drover.receptor.cells;
