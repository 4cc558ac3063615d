/** The rep: one per cell; claims placed work, runs and watches the containers, reports truthfully. */
package io.drover.rep;
