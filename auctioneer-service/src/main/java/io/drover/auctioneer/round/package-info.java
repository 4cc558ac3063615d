/**
 * One auction round: start requests in from Kafka, work and live cells from PostgreSQL, the leader's allocation view,
 * the Scheduler, placements committed through the lifecycle fenced by the leader lock.
 */
package io.drover.auctioneer.round;
