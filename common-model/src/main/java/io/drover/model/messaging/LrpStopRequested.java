package io.drover.model.messaging;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.UUID;

/**
 * Asks a cell to stop one incarnation and remove its record. Topic {@link Topics#STOP_REQUESTS}, key cell_id, message
 * type {@value #TYPE}. A cancelled task's process is stopped by a {@link TaskCancelRequested} of its own.
 *
 * @param taskGuid deprecated, read only: before issue 35 a task's cancel travelled as a stop request with this set and
 *     no process_guid or instance_guid (and no type header); a rep still reads one left in the topic during an
 *     upgrade. Nothing writes it any more.
 */
public record LrpStopRequested(UUID messageId, String cellId, String processGuid, int index, String instanceGuid,
        String reason, @Deprecated @JsonInclude(JsonInclude.Include.NON_NULL) String taskGuid) implements Command {

    public static final String TYPE = "lrp_stop_requested";

    /** A stop request for one instance of a desired LRP. */
    public LrpStopRequested(UUID messageId, String cellId, String processGuid, int index, String instanceGuid,
            String reason) {
        this(messageId, cellId, processGuid, index, instanceGuid, reason, null);
    }

    @Override
    public String messageType() {
        return TYPE;
    }

    /** Whether this is a task's cancel in the shape before issue 35 (see {@code taskGuid}). */
    @Deprecated
    @JsonIgnore
    public boolean isForTask() {
        return taskGuid != null;
    }
}
