package io.drover.model.task;

import java.time.Instant;

/**
 * What is left of a deleted task for a while ({@code drover.tasks.tombstone-ttl}, 24 h by default): its guid, domain,
 * the digest of the definition it was submitted with ({@link TaskDefinition#digest()}) and when it was deleted. A
 * submission of that guid within the window is answered from it, and never runs the task again.
 */
public record TaskTombstone(String taskGuid, String domain, String digest, Instant deletedAt) {
}
