package io.drover.auctioneer.allocation;

/**
 * One row of the allocation aggregate: what the instances of one process_guid take on one cell (CLAIMED or RUNNING
 * there, or placed there and not yet claimed), and how many of them are still starting.
 */
public record AllocationRow(String cellId, String processGuid, int instances, int starting, int memoryMb,
        int diskMb) {
}
