/**
 * How the router keeps its table: the read model at start and after a gap, the lifecycle events and stop requests on
 * Kafka in between, and a fingerprint check that finds what a lost event left out.
 */
package io.drover.router.feed;
