/** Evacuation (SPEC 8.5): the loopback-only admin endpoint that starts a drain, and the contract it drives. */
package io.drover.rep.evacuation;
