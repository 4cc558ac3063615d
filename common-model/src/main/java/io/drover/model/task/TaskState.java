package io.drover.model.task;

/**
 * Where a task is in its life (SPEC 13): waiting for a cell, running on one, done (with its result, failed or not), and
 * being resolved (its completion is being handed to whoever submitted it; the task is deleted next).
 */
public enum TaskState {
    PENDING, RUNNING, COMPLETED, RESOLVING
}
