/** Desired and actual LRPs: the ActualLrp state machine, the crash restart policy and the only write path to both. */
package io.drover.model.lrp;
