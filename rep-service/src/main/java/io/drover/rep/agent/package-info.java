/**
 * The cell agent: one per cell, a thin shell that queues what it is told and runs the cell's serial passes over
 * presence, intake, sync, evacuation and tasks; and the cells of the process, started and stopped together.
 */
package io.drover.rep.agent;
