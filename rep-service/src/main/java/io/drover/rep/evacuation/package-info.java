/**
 * Evacuation (SPEC 8.5): where a cell's drain stands, the contract that starts drains, and the loopback-only admin
 * endpoint that drives it.
 */
package io.drover.rep.evacuation;
