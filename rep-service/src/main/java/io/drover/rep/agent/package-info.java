/** The cell agent: one per cell, turning placements, container events and sync passes into lifecycle operations. */
package io.drover.rep.agent;
