/**
 * What a rep's cells are: the {@code drover.rep.*} settings, the cells (one, or N simulated) built from them, what each
 * has promised to its containers, and the rep's meters.
 */
package io.drover.rep.cell;
