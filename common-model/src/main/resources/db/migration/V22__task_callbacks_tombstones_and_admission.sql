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

-- A task guid stays known after its task is deleted (SPEC 13), for drover.tasks.tombstone-ttl (24 h): its domain, the
-- SHA-256 of the definition it was submitted with, and when it was deleted. A retried submission within the window is
-- answered from here (identical: 200, different: 409) and never runs the task twice. Written by the statement that
-- deletes the task; pruned by the converger's garbage collection.
CREATE TABLE task_tombstones (
    task_guid  varchar(128) PRIMARY KEY,
    domain     varchar(256) NOT NULL,
    digest     varchar(64)  NOT NULL,
    deleted_at timestamptz  NOT NULL
);
CREATE INDEX task_tombstones_deleted_idx ON task_tombstones (deleted_at);

-- GET /v1/tasks?domain= pages in task_guid order like the LRP lists (V8); admission counts a domain's unfinished tasks
-- on it too. It replaces the index on domain alone, so a task's writes maintain no more indexes than before.
DROP INDEX tasks_domain_idx;
CREATE INDEX tasks_domain_guid_idx ON tasks (domain, task_guid);
