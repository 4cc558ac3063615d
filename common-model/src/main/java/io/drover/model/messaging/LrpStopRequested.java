package io.drover.model.messaging;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.UUID;

/**
 * Asks a cell to stop one incarnation and remove its record. Topic {@link Topics#STOP_REQUESTS}, key cell_id. Added for
 * tasks: with a {@code task_guid} (and no process_guid or instance_guid) it asks the cell to stop a cancelled task's
 * process; a rep that predates tasks ignores a stop request without an instance_guid, as it always did.
 */
public record LrpStopRequested(UUID messageId, String cellId, String processGuid, int index, String instanceGuid,
        String reason, @JsonInclude(JsonInclude.Include.NON_NULL) String taskGuid) {

    /** A stop request for one instance of a desired LRP. */
    public LrpStopRequested(UUID messageId, String cellId, String processGuid, int index, String instanceGuid,
            String reason) {
        this(messageId, cellId, processGuid, index, instanceGuid, reason, null);
    }

    /** Asks {@code cellId} to stop the process of a task that was cancelled. */
    public static LrpStopRequested forTask(UUID messageId, String cellId, String taskGuid, String reason) {
        return new LrpStopRequested(messageId, cellId, null, 0, null, reason, taskGuid);
    }

    @JsonIgnore
    public boolean isForTask() {
        return taskGuid != null;
    }
}
