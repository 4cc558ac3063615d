/** What a rep's cells are: the {@code drover.rep.*} settings and the cells (one, or N simulated) built from them. */
package io.drover.rep.cell;
