-- Drover's schema. Append-only: never edit a migration once it has landed; add V2__... instead.

CREATE TABLE desired_lrps (
    process_guid      varchar(128) PRIMARY KEY,
    domain            varchar(256) NOT NULL,
    instances         integer      NOT NULL CHECK (instances BETWEEN 0 AND 10000),
    rootfs            varchar(1024) NOT NULL,
    action            text         NOT NULL,
    monitor           text,
    checks            text,
    env               text         NOT NULL DEFAULT '[]',
    ports             text         NOT NULL DEFAULT '[]',
    memory_mb         integer      NOT NULL DEFAULT 0 CHECK (memory_mb >= 0),
    disk_mb           integer      NOT NULL DEFAULT 0 CHECK (disk_mb >= 0),
    max_pids          integer      NOT NULL DEFAULT 0 CHECK (max_pids >= 0),
    cpu_weight        integer      NOT NULL DEFAULT 0 CHECK (cpu_weight BETWEEN 0 AND 100),
    placement_tags    text         NOT NULL DEFAULT '[]',
    routes            text,
    annotation        text,
    start_timeout_s   integer      NOT NULL DEFAULT 0 CHECK (start_timeout_s >= 0),
    log_guid          varchar(256),
    metrics_guid      varchar(256),
    epoch             uuid         NOT NULL,
    version           bigint       NOT NULL,
    created_at        timestamptz  NOT NULL,
    updated_at        timestamptz  NOT NULL
);
CREATE INDEX desired_lrps_domain_idx ON desired_lrps (domain);

CREATE TABLE actual_lrps (
    process_guid      varchar(128) NOT NULL,
    instance_index    integer      NOT NULL CHECK (instance_index >= 0),
    domain            varchar(256) NOT NULL,
    state             varchar(16)  NOT NULL CHECK (state IN ('UNCLAIMED', 'CLAIMED', 'RUNNING', 'CRASHED')),
    instance_guid     varchar(64),
    cell_id           varchar(128),
    address           varchar(256),
    ports             text,
    crash_count       integer      NOT NULL DEFAULT 0 CHECK (crash_count >= 0),
    crash_reason      text,
    placement_error   text,
    placed_cell_id    varchar(128),
    placed_at         timestamptz,
    since             timestamptz  NOT NULL,
    epoch             uuid         NOT NULL,
    version           bigint       NOT NULL,
    PRIMARY KEY (process_guid, instance_index),
    -- The invariants of SPEC 3.1, enforced by the database as well as by ActualLrp.
    CONSTRAINT actual_lrps_owner_by_state CHECK (
        (state IN ('UNCLAIMED', 'CRASHED') AND instance_guid IS NULL AND cell_id IS NULL AND address IS NULL)
        OR (state = 'CLAIMED' AND instance_guid IS NOT NULL AND cell_id IS NOT NULL AND address IS NULL AND placement_error IS NULL)
        OR (state = 'RUNNING' AND instance_guid IS NOT NULL AND cell_id IS NOT NULL AND address IS NOT NULL)
    ),
    CONSTRAINT actual_lrps_placement_only_unclaimed CHECK (state = 'UNCLAIMED' OR placed_cell_id IS NULL)
);
CREATE INDEX actual_lrps_state_since_idx ON actual_lrps (state, since);
CREATE INDEX actual_lrps_cell_idx ON actual_lrps (cell_id) WHERE cell_id IS NOT NULL;
CREATE INDEX actual_lrps_placed_cell_idx ON actual_lrps (placed_cell_id) WHERE placed_cell_id IS NOT NULL;
CREATE INDEX actual_lrps_domain_idx ON actual_lrps (domain);

CREATE TABLE cells (
    cell_id                 varchar(128) PRIMARY KEY,
    zone                    varchar(128) NOT NULL,
    address                 varchar(256) NOT NULL,
    memory_mb               integer      NOT NULL CHECK (memory_mb >= 0),
    disk_mb                 integer      NOT NULL CHECK (disk_mb >= 0),
    containers              integer      NOT NULL CHECK (containers >= 0),
    rootfs_providers        text         NOT NULL DEFAULT '[]',
    placement_tags          text         NOT NULL DEFAULT '[]',
    optional_placement_tags text         NOT NULL DEFAULT '[]',
    state                   varchar(16)  NOT NULL CHECK (state IN ('ACTIVE', 'EVACUATING')),
    heartbeat_at            timestamptz  NOT NULL,
    expires_at              timestamptz  NOT NULL,
    version                 bigint       NOT NULL
);
CREATE INDEX cells_expires_at_idx ON cells (expires_at);

CREATE TABLE domains (
    name        varchar(256) PRIMARY KEY,
    expires_at  timestamptz
);

CREATE TABLE outbox (
    id          bigserial    PRIMARY KEY,
    topic       varchar(256) NOT NULL,
    message_key varchar(256) NOT NULL,
    payload     text         NOT NULL,
    created_at  timestamptz  NOT NULL,
    sent_at     timestamptz
);
-- The relay only ever looks at unsent rows, oldest first.
CREATE INDEX outbox_unsent_idx ON outbox (id) WHERE sent_at IS NULL;
CREATE INDEX outbox_sent_at_idx ON outbox (sent_at) WHERE sent_at IS NOT NULL;

CREATE TABLE lrp_events (
    id              bigserial    PRIMARY KEY,
    entity          varchar(16)  NOT NULL CHECK (entity IN ('desired', 'actual')),
    process_guid    varchar(128) NOT NULL,
    instance_index  integer,
    event_type      varchar(64)  NOT NULL,
    from_state      varchar(16),
    to_state        varchar(16),
    reason          text,
    actor_service   varchar(64)  NOT NULL,
    actor_cell_id   varchar(128),
    version         bigint,
    at              timestamptz  NOT NULL
);
CREATE INDEX lrp_events_entity_idx ON lrp_events (process_guid, instance_index, id);
CREATE INDEX lrp_events_at_idx ON lrp_events (at);

CREATE TABLE leader_locks (
    name        varchar(128) PRIMARY KEY,
    holder      varchar(256) NOT NULL,
    expires_at  timestamptz  NOT NULL
);
