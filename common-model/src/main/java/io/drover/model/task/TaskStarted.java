package io.drover.model.task;

import io.drover.model.lrp.Outcome;

/**
 * What a cell's start of one task came to, with the task's definition as the start found it (null when there was no
 * such task): a cell runs the task of a start that {@link #made} it from this, without reading it first.
 */
public record TaskStarted(Outcome outcome, TaskDefinition definition) {

    /** Whether this start made the task RUNNING: only then may the cell run its action. */
    public boolean made() {
        return outcome.kind() == Outcome.Kind.CHANGED;
    }
}
