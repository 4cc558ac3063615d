/** Placements: what an auction decided for a record no cell owns yet, shared by instance slots and tasks. */
package io.drover.model.placement;
