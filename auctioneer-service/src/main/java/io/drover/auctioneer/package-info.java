/** The auctioneer: places instances on cells in batched auctions. */
package io.drover.auctioneer;
