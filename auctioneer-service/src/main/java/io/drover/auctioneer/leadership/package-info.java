/** Single active auctioneer: only the holder of the leader lock consumes start requests; standbys wait. */
package io.drover.auctioneer.leadership;
