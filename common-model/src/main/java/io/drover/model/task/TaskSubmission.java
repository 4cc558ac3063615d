package io.drover.model.task;

/** What a submission came to: the task, and whether this call created it (false: an identical resubmission). */
public record TaskSubmission(TaskSnapshot task, boolean created) {
}
