package io.drover.model.messaging;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.UUID;

/**
 * The result of one auction for one cell: the instances it should claim and start. Topic
 * {@link Topics#AUCTION_RESULTS}, key cell_id, message type {@value #TYPE}. {@code epoch} and {@code version} identify
 * the record as it was placed, so a rep can tell a stale placement from a current one. Tasks travel in
 * {@link TasksPlaced} of their own.
 *
 * @param tasks deprecated, read only: an auctioneer before issue 35 sent a cell's tasks in this field (with an empty
 *     {@code placements}, and no type header); a rep still reads them from a message of that shape left in the topic
 *     during an upgrade. Nothing writes it any more.
 */
public record LrpsPlaced(UUID messageId, String cellId, UUID auctionId, List<Placement> placements,
        @Deprecated @JsonInclude(JsonInclude.Include.NON_EMPTY) List<TasksPlaced.TaskPlacement> tasks)
        implements Command {

    public static final String TYPE = "lrps_placed";

    public LrpsPlaced {
        placements = placements == null ? List.of() : List.copyOf(placements);
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
    }

    /** A result placing instances of desired LRPs. */
    public LrpsPlaced(UUID messageId, String cellId, UUID auctionId, List<Placement> placements) {
        this(messageId, cellId, auctionId, placements, List.of());
    }

    @Override
    public String messageType() {
        return TYPE;
    }

    /**
     * One instance placed on the cell; {@code definitionVersion} is the definition version it is to run (SPEC 14), and
     * {@code lrpEpoch} the epoch of the desired LRP it belongs to (its life: a desired LRP deleted and desired again has
     * a new one, and starts at version 1 again), so that a cell never runs a definition of an earlier life. Both are
     * null from an auctioneer that predates them; a current rep refuses such a placement as stale.
     */
    public record Placement(String processGuid, int index, UUID epoch, long version,
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer definitionVersion,
            @JsonInclude(JsonInclude.Include.NON_NULL) UUID lrpEpoch) {

        public Placement(String processGuid, int index, UUID epoch, long version) {
            this(processGuid, index, epoch, version, null, null);
        }

        public Placement(String processGuid, int index, UUID epoch, long version, Integer definitionVersion) {
            this(processGuid, index, epoch, version, definitionVersion, null);
        }
    }
}
