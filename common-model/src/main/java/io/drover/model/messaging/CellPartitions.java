package io.drover.model.messaging;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;

/**
 * Maps a cell id to its partition of the per-cell topics exactly as Kafka's default partitioner maps the record key,
 * so a rep can {@code assign} itself that one partition instead of reading every cell's traffic.
 */
public final class CellPartitions {

    private CellPartitions() {
    }

    public static int partitionFor(String cellId, int partitions) {
        return Utils.toPositive(Utils.murmur2(cellId.getBytes(StandardCharsets.UTF_8))) % partitions;
    }
}
