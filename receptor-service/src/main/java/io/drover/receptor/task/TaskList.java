package io.drover.receptor.task;

import io.drover.model.json.Json;
import io.drover.model.read.ListFingerprint;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskReads.TaskFilter;
import io.drover.model.task.TaskSnapshot;
import io.drover.receptor.web.ContinueToken;
import io.drover.receptor.web.KeysetListing;
import io.drover.receptor.web.ListTag;
import java.util.List;
import tools.jackson.core.JsonGenerator;

/**
 * {@code GET /v1/tasks[?domain=&cell_id=&state=]} as keyset pages in task_guid order, exactly as the LRP lists page
 * ({@link KeysetListing}). A continue token belongs to its filters: the cell and state are part of the list's name in
 * it, the domain is its domain, so a token is refused by a listing with other filters.
 */
record TaskList(TaskReads reads, TaskFilter filter) implements KeysetListing.Source<TaskSnapshot> {

    @Override
    public String list() {
        return "tasks" + (filter.cellId() == null ? "" : "?cell_id=" + filter.cellId())
                + (filter.state() == null ? "" : "?state=" + filter.state());
    }

    @Override
    public List<TaskSnapshot> page(ContinueToken after, int limit) {
        return matchesNothing() ? List.of() : reads.page(filter, after == null ? null : after.processGuid(), limit);
    }

    @Override
    public ListFingerprint fingerprint() {
        return matchesNothing() ? KeysetListing.EMPTY : reads.fingerprint(filter);
    }

    @Override
    public ContinueToken positionAfter(TaskSnapshot row) {
        return new ContinueToken(list(), filter.domain(), row.taskGuid(), 0);
    }

    @Override
    public void tag(ListTag tag, TaskSnapshot row) {
        tag.add(row.taskGuid(), 0, row.modificationTag().epoch(), row.modificationTag().index());
    }

    @Override
    public void write(JsonGenerator json, TaskSnapshot row) {
        Json.MAPPER.writeValue(json, row);
    }

    /** A task may carry a 10 KiB result, a 10 KiB annotation and its action: small internal pages bound the memory. */
    @Override
    public int chunk() {
        return 100;
    }

    @Override
    public int maxLimit() {
        return 1_000;
    }

    /** A filter no row can match (PostgreSQL text cannot hold NUL): empty without asking. */
    private boolean matchesNothing() {
        return KeysetListing.matchesNothing(filter.domain()) || KeysetListing.matchesNothing(filter.cellId());
    }
}
