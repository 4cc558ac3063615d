package io.drover.model.messaging;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.UUID;

/**
 * Asks the auctioneer to place work. Topic {@link Topics#START_REQUESTS}, message type {@value #TYPE}. Either these
 * {@code indices} of one desired LRP (key process_guid), or, added for tasks, the tasks {@code task_guids} (key: the
 * first task guid; process_guid null, no indices). An auctioneer that predates tasks drops a request without a
 * process_guid, as it always did.
 */
public record LrpStartRequested(UUID messageId, String processGuid, String domain, List<Integer> indices,
        String reason, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> taskGuids) implements Command {

    public static final String TYPE = "lrp_start_requested";

    public LrpStartRequested {
        indices = indices == null ? List.of() : List.copyOf(indices);
        taskGuids = taskGuids == null ? List.of() : List.copyOf(taskGuids);
    }

    /** A request for instances of one desired LRP. */
    public LrpStartRequested(UUID messageId, String processGuid, String domain, List<Integer> indices, String reason) {
        this(messageId, processGuid, domain, indices, reason, List.of());
    }

    @Override
    public String messageType() {
        return TYPE;
    }

    /** A request to place tasks. */
    public static LrpStartRequested forTasks(UUID messageId, String domain, List<String> taskGuids, String reason) {
        return new LrpStartRequested(messageId, null, domain, List.of(), reason, taskGuids);
    }
}
