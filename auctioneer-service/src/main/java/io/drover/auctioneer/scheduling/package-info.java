/** The pure placement decision: which live cell takes each instance of a round, or why none can (SPEC 7). */
package io.drover.auctioneer.scheduling;
