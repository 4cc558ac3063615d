/** One auction round: start requests in from Kafka, snapshot from PostgreSQL, Scheduler, placements committed. */
package io.drover.auctioneer.round;
