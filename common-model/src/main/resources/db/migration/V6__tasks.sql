-- Tasks: run-once work (SPEC 13, issue 16). One row per task, written only by TaskLifecycle; its changes are audited
-- in lrp_events (entity 'task', process_guid = task_guid) exactly like LRP changes, and those rows are the task events.

CREATE TABLE tasks (
    task_guid               varchar(128)  PRIMARY KEY,
    domain                  varchar(256)  NOT NULL,
    rootfs                  varchar(1024) NOT NULL,
    action                  text          NOT NULL,
    env                     text          NOT NULL DEFAULT '[]',
    memory_mb               integer       NOT NULL DEFAULT 0 CHECK (memory_mb >= 0),
    disk_mb                 integer       NOT NULL DEFAULT 0 CHECK (disk_mb >= 0),
    cpu_weight              integer       NOT NULL DEFAULT 0 CHECK (cpu_weight BETWEEN 0 AND 100),
    max_pids                integer       NOT NULL DEFAULT 0 CHECK (max_pids >= 0),
    placement_tags          text          NOT NULL DEFAULT '[]',
    result_file             varchar(4096),
    completion_callback_url varchar(4096),
    annotation              text,
    log_guid                varchar(256),
    metrics_guid            varchar(256),
    state                   varchar(16)   NOT NULL CHECK (state IN ('PENDING', 'RUNNING', 'COMPLETED', 'RESOLVING')),
    cell_id                 varchar(128),
    failed                  boolean       NOT NULL DEFAULT false,
    failure_reason          text,
    result                  text          NOT NULL DEFAULT '',
    placement_error         text,
    placed_cell_id          varchar(128),
    placed_at               timestamptz,
    placement_attempts      integer       NOT NULL DEFAULT 0 CHECK (placement_attempts >= 0),
    created_at              timestamptz   NOT NULL,
    updated_at              timestamptz   NOT NULL,
    first_completed_at      timestamptz,
    epoch                   uuid          NOT NULL,
    version                 bigint        NOT NULL,
    -- The invariants of the task states, enforced by the database as well as by Task.
    CONSTRAINT tasks_cell_by_state CHECK (
        (state = 'PENDING' AND cell_id IS NULL AND NOT failed)
        OR (state = 'RUNNING' AND cell_id IS NOT NULL AND NOT failed)
        OR (state IN ('COMPLETED', 'RESOLVING') AND first_completed_at IS NOT NULL)
    ),
    CONSTRAINT tasks_placement_only_pending CHECK (state = 'PENDING' OR placed_cell_id IS NULL),
    CONSTRAINT tasks_failure_has_reason CHECK (NOT failed OR failure_reason IS NOT NULL)
);
CREATE INDEX tasks_state_updated_idx ON tasks (state, updated_at);
CREATE INDEX tasks_cell_idx ON tasks (cell_id) WHERE cell_id IS NOT NULL;
CREATE INDEX tasks_placed_cell_idx ON tasks (placed_cell_id) WHERE placed_cell_id IS NOT NULL;
CREATE INDEX tasks_domain_idx ON tasks (domain);
CREATE INDEX tasks_awaiting_callback_idx ON tasks (first_completed_at)
    WHERE state = 'COMPLETED' AND completion_callback_url IS NOT NULL;

ALTER TABLE lrp_events DROP CONSTRAINT lrp_events_entity_check;
ALTER TABLE lrp_events ADD CONSTRAINT lrp_events_entity_check CHECK (entity IN ('desired', 'actual', 'task'));
