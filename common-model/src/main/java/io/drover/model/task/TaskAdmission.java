package io.drover.model.task;

/**
 * Whether a new task may be created in its domain, asked by the submission inside its transaction, only when it would
 * create a task (never for a resubmission of an existing or deleted one). An admission that refuses throws; the
 * submission is then rolled back, unretried.
 */
@FunctionalInterface
public interface TaskAdmission {

    /** Admits everything. */
    TaskAdmission ANY = domain -> {
    };

    /** Returns if a new task of {@code domain} is admitted; throws to refuse it. */
    void admit(String domain);
}
