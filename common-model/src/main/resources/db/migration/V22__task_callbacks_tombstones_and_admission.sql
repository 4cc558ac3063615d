-- Issue 37: tasks at the cost of an instance, every callback delivered.

-- Each task keeps its completion callback's state in its row (SPEC 13): pending (also while it runs and between
-- attempts), delivered or given_up; the attempts made, the HTTP status of the last one (null: no answer), when it was
-- and when the next one is due (null: as soon as the task completes). Null status: the task has no callback URL.
ALTER TABLE tasks
    ADD COLUMN callback_status      varchar(16) CHECK (callback_status IN ('pending', 'delivered', 'given_up')),
    ADD COLUMN callback_attempts    integer     NOT NULL DEFAULT 0 CHECK (callback_attempts >= 0),
    ADD COLUMN callback_last_status integer,
    ADD COLUMN callback_last_at     timestamptz,
    ADD COLUMN callback_next_at     timestamptz;
-- Tasks stored before: the old worker kept what it gave up in memory only, so every callback still stored is due.
UPDATE tasks SET callback_status = 'pending' WHERE completion_callback_url IS NOT NULL;
ALTER TABLE tasks ADD CONSTRAINT tasks_callback_with_url
    CHECK ((callback_status IS NULL) = (completion_callback_url IS NULL));

-- The callback worker's queue: only the completed tasks whose callback is pending, by when it is due. The index it
-- replaces held every completed task with a URL, given up or not, and the worker filtered them in memory.
DROP INDEX tasks_awaiting_callback_idx;
CREATE INDEX tasks_callback_due_idx ON tasks ((coalesce(callback_next_at, first_completed_at)))
    WHERE state = 'COMPLETED' AND callback_status = 'pending';
