/** Leader election over a PostgreSQL lock row with a TTL: one active converger and one active auctioneer. */
package io.drover.model.leader;
