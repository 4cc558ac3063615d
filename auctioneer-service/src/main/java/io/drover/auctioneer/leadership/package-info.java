/** Single active auctioneer: only the holder of the leader lock consumes start requests and writes; standbys wait. */
package io.drover.auctioneer.leadership;
