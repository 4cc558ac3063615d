-- Deployments (SPEC 14): a desired LRP's definition changes by a rolling deployment, not in place.
--
-- Every desired LRP has a definition version (1 when desired); each deployment moves it to a new one (or back to one
-- kept in desired_lrp_definitions, which holds the last 10 of each LRP, the current one included). Each actual LRP
-- carries the version its incarnation runs, and so does the evacuating twin that keeps an old incarnation serving while
-- a deployment replaces its slot: a deployment reuses the twin of SPEC 8.5, see docs/deployments.md.
ALTER TABLE desired_lrps ADD COLUMN definition_version integer NOT NULL DEFAULT 1 CHECK (definition_version >= 1);
ALTER TABLE actual_lrps ADD COLUMN definition_version integer NOT NULL DEFAULT 1 CHECK (definition_version >= 1);
ALTER TABLE evacuating_lrps ADD COLUMN definition_version integer NOT NULL DEFAULT 1 CHECK (definition_version >= 1);
-- Why the twin exists: a draining cell ('evacuation') or a deployment's surge ('deployment'). A draining cell's rep
-- decides about its twins itself; a deployment's twin serves until the deployer removes it.
ALTER TABLE evacuating_lrps ADD COLUMN kept_for varchar(16) NOT NULL DEFAULT 'evacuation'
    CHECK (kept_for IN ('evacuation', 'deployment'));

-- The fields a deployment may change, per version, in the columns (and JSON encodings) of desired_lrps.
CREATE TABLE desired_lrp_definitions (
    process_guid        varchar(128) NOT NULL REFERENCES desired_lrps (process_guid) ON DELETE CASCADE,
    definition_version  integer      NOT NULL CHECK (definition_version >= 1),
    action              text         NOT NULL,
    monitor             text,
    checks              text,
    start_timeout_s     integer      NOT NULL,
    env                 text         NOT NULL,
    ports               text         NOT NULL,
    memory_mb           integer      NOT NULL,
    disk_mb             integer      NOT NULL,
    max_pids            integer      NOT NULL,
    cpu_weight          integer      NOT NULL,
    placement_tags      text         NOT NULL,
    created_at          timestamptz  NOT NULL,
    PRIMARY KEY (process_guid, definition_version)
);
INSERT INTO desired_lrp_definitions (process_guid, definition_version, action, monitor, checks, start_timeout_s, env,
    ports, memory_mb, disk_mb, max_pids, cpu_weight, placement_tags, created_at)
SELECT process_guid, 1, action, monitor, checks, start_timeout_s, env, ports, memory_mb, disk_mb, max_pids, cpu_weight,
    placement_tags, created_at FROM desired_lrps;

CREATE TABLE deployments (
    id                   uuid         PRIMARY KEY,
    process_guid         varchar(128) NOT NULL REFERENCES desired_lrps (process_guid) ON DELETE CASCADE,
    state                varchar(32)  NOT NULL CHECK (state IN ('RUNNING', 'PAUSED', 'WAITING_FOR_PROMOTION',
                             'SUCCESSFUL', 'FAILED', 'REVERTED', 'CANCELLED')),
    from_version         integer      NOT NULL,
    to_version           integer      NOT NULL,
    max_surge            varchar(8)   NOT NULL,  -- a count ("2") or a share of instances ("25%")
    max_unavailable      varchar(8)   NOT NULL,
    min_healthy_time_s   integer      NOT NULL CHECK (min_healthy_time_s >= 0),
    progress_deadline_s  integer      NOT NULL CHECK (progress_deadline_s >= 1),
    auto_revert          boolean      NOT NULL,
    canary               integer      NOT NULL CHECK (canary >= 0),
    promoted             boolean      NOT NULL DEFAULT false,
    reverts              uuid,
    failure_reason       text,
    created_by           varchar(256) NOT NULL,
    created_at           timestamptz  NOT NULL,
    updated_at           timestamptz  NOT NULL,
    -- the progress deadline counts from here: the start, the last resume or promotion, the last instance updated
    progress_at          timestamptz  NOT NULL,
    finished_at          timestamptz,
    version              bigint       NOT NULL
);
-- One active deployment per LRP; the deployer reads the active ones every tick.
CREATE UNIQUE INDEX deployments_active_idx ON deployments (process_guid)
    WHERE state IN ('RUNNING', 'PAUSED', 'WAITING_FOR_PROMOTION');
CREATE INDEX deployments_process_idx ON deployments (process_guid, created_at);

-- A deployment's states are longer than an instance's (WAITING_FOR_PROMOTION).
ALTER TABLE lrp_events ALTER COLUMN from_state TYPE varchar(32), ALTER COLUMN to_state TYPE varchar(32);
ALTER TABLE lrp_events DROP CONSTRAINT lrp_events_entity_check;
ALTER TABLE lrp_events ADD CONSTRAINT lrp_events_entity_check
    CHECK (entity IN ('desired', 'actual', 'task', 'deployment'));
