package io.drover.model.task;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every cell of the task transition table, for every kind of requester: the task's own cell (SAME), another cell
 * (OTHER) and a service (NONE). "deleted" is the last column.
 */
class TaskTransitionsTest {

    static final String STORED = "cell-a";

    @ParameterizedTest(name = "{0} -> {1}: same cell {2}, other cell {3}, a service {4}")
    @CsvSource({
            // from,     to,        SAME,  OTHER, NONE
            "PENDING,    PENDING,   true,  true,  true",
            "PENDING,    RUNNING,   true,  true,  false",
            "PENDING,    COMPLETED, false, false, true",
            "PENDING,    RESOLVING, false, false, false",
            "PENDING,    deleted,   false, false, false",
            "RUNNING,    PENDING,   false, false, false",
            "RUNNING,    RUNNING,   true,  false, false",
            "RUNNING,    COMPLETED, true,  false, true",
            "RUNNING,    RESOLVING, false, false, false",
            "RUNNING,    deleted,   false, false, false",
            "COMPLETED,  PENDING,   false, false, false",
            "COMPLETED,  RUNNING,   false, false, false",
            "COMPLETED,  COMPLETED, false, false, false",
            "COMPLETED,  RESOLVING, false, false, true",
            "COMPLETED,  deleted,   false, false, true",
            "RESOLVING,  PENDING,   false, false, false",
            "RESOLVING,  RUNNING,   false, false, false",
            "RESOLVING,  COMPLETED, false, false, true",
            "RESOLVING,  RESOLVING, false, false, false",
            "RESOLVING,  deleted,   false, false, true" })
    void theTableAllowsExactlyItsCells(TaskState from, String to, boolean same, boolean other, boolean none) {
        // a PENDING task has no cell yet: "same" there means the cell the request names is the one it is placed on
        String stored = from == TaskState.PENDING ? null : STORED;
        assertThat(allows(from, stored, STORED, to)).as("the task's own cell").isEqualTo(same);
        assertThat(allows(from, stored, "cell-b", to)).as("another cell").isEqualTo(other);
        assertThat(allows(from, stored, null, to)).as("a service").isEqualTo(none);
    }

    private static boolean allows(TaskState from, String stored, String requester, String to) {
        return to.equals("deleted") ? TaskTransitions.allowsDelete(from, requester)
                : TaskTransitions.allows(from, stored, requester, TaskState.valueOf(to));
    }
}
