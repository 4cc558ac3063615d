-- How each cell isolates what it runs, written with its presence registration (docs/process-executor.md):
-- CGROUPS_V1 / CGROUPS_V2 (the kernel enforces memory, cpu weight and pids), SAMPLING (the rep watches /proc),
-- SIMULATED (no processes at all); UNKNOWN for a rep that does not say.
ALTER TABLE cells ADD COLUMN isolation varchar(16) NOT NULL DEFAULT 'UNKNOWN'
    CHECK (isolation IN ('CGROUPS_V1', 'CGROUPS_V2', 'SAMPLING', 'SIMULATED', 'UNKNOWN'));

-- The latest usage figures of each instance (GET /v1/actual_lrps/{guid}/metrics), written by the instance's rep in one
-- statement per sampling round and read by the receptor. Not lifecycle state: no version, no event, no outbox. A row is
-- shown only while an actual LRP of the same instance_guid exists; the rep deletes the rows of instances it no longer
-- holds, and any rep sweeps the rows of cells that are gone.
CREATE TABLE instance_usage (
    instance_guid      varchar(64)      PRIMARY KEY,
    process_guid       varchar(128)     NOT NULL,
    instance_index     integer          NOT NULL CHECK (instance_index >= 0),
    cell_id            varchar(128)     NOT NULL,
    cpu_percent        double precision NOT NULL CHECK (cpu_percent >= 0),
    memory_bytes       bigint           NOT NULL CHECK (memory_bytes >= 0),
    memory_limit_bytes bigint           NOT NULL CHECK (memory_limit_bytes >= 0),
    disk_bytes         bigint           NOT NULL CHECK (disk_bytes >= 0),
    started_at         timestamptz      NOT NULL
);
CREATE INDEX instance_usage_process_guid_idx ON instance_usage (process_guid);
CREATE INDEX instance_usage_cell_idx ON instance_usage (cell_id);
