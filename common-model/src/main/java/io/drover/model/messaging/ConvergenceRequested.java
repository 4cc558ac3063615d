package io.drover.model.messaging;

import java.util.UUID;

/**
 * Asks the converger for a pass: a lifecycle transaction made a change that may leave instance slots for it beyond
 * what the change did itself. Topic {@link Topics#CONVERGENCE_REQUESTS}, key process_guid, message type
 * {@value #TYPE}; one per transaction, named after its first such change ({@code reason} is that change's event type).
 * Every converger reads the topic live from the end with nothing committed: a lost request only delays convergence to
 * the next periodic pass.
 *
 * <p>The converger used to pick these changes out of {@link Topics#LIFECYCLE_EVENTS} by their type header, which made
 * it fetch every event of the cluster (about three per instance started) to find none while instances start.
 */
public record ConvergenceRequested(UUID messageId, String processGuid, String reason) implements Command {

    public static final String TYPE = "convergence_requested";

    @Override
    public String messageType() {
        return TYPE;
    }

    /**
     * Whether a change of {@code eventType} asks: a desired LRP changed or removed (a scale, an update or a
     * redefinition may leave instances to create or retire), or an actual LRP removed (its index may still be desired).
     * A new desired LRP does not: its desire created every instance and the auction request in the same transaction.
     */
    public static boolean isAskedBy(String eventType) {
        return eventType.equals(LifecycleEvent.DESIRED_LRP_CHANGED)
                || eventType.equals(LifecycleEvent.DESIRED_LRP_REMOVED)
                || eventType.equals(LifecycleEvent.ACTUAL_LRP_REMOVED);
    }
}
