package io.drover.model.messaging;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.UUID;

/**
 * The result of one auction for one cell: the instances it should claim and start, and (added for tasks) the tasks it
 * should start. Topic {@link Topics#AUCTION_RESULTS}, key cell_id. {@code epoch} and {@code version} identify the record
 * as it was placed, so a rep can tell a stale placement from a current one. A result that places only tasks carries an
 * empty {@code placements}, which a rep that predates tasks reads as nothing to do.
 */
public record LrpsPlaced(UUID messageId, String cellId, UUID auctionId, List<Placement> placements,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<TaskPlacement> tasks) {

    public LrpsPlaced {
        placements = placements == null ? List.of() : List.copyOf(placements);
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
    }

    /** A result placing instances of desired LRPs. */
    public LrpsPlaced(UUID messageId, String cellId, UUID auctionId, List<Placement> placements) {
        this(messageId, cellId, auctionId, placements, List.of());
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

    /** One task placed on the cell; {@code epoch} tells this task from an earlier one of the same guid. */
    public record TaskPlacement(String taskGuid, UUID epoch) {
    }
}
