/**
 * The autoscaler (SPEC 17): on the converger's leader, sizes every autoscaled LRP by its instances' load with the pure
 * {@link io.drover.converger.autoscale.Scaling} and applies each change as the LRP's ordinary update.
 */
package io.drover.converger.autoscale;
