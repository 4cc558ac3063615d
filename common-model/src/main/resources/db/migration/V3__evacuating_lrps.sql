-- Evacuation without downtime (SPEC 8.5), Diego's way: while a cell drains, an instance it runs keeps serving from a
-- second record, its evacuating twin (same process_guid and index, the old instance_guid, cell and address), while the
-- ordinary record in actual_lrps goes back to UNCLAIMED for its replacement. The twin is removed, and its container
-- stopped, once the replacement is RUNNING elsewhere (or the drain's deadline passes, or the cell is gone).
--
-- The twin lives in a table of its own rather than behind a presence column in actual_lrps' key: everything that
-- schedules, converges and claims keeps reading one record per slot, and only what must see a draining instance (the
-- API, the draining cell, retiring a slot, the converger's clean-up of lost cells) reads the twins.
CREATE TABLE evacuating_lrps (
    process_guid    varchar(128) NOT NULL,
    instance_index  integer      NOT NULL CHECK (instance_index >= 0),
    domain          varchar(256) NOT NULL,
    instance_guid   varchar(64)  NOT NULL,
    cell_id         varchar(128) NOT NULL,
    address         varchar(256) NOT NULL,
    ports           text,
    crash_count     integer      NOT NULL DEFAULT 0 CHECK (crash_count >= 0),
    crash_reason    text,
    since           timestamptz  NOT NULL,
    epoch           uuid         NOT NULL,
    version         bigint       NOT NULL,
    PRIMARY KEY (process_guid, instance_index)
);
CREATE INDEX evacuating_lrps_cell_idx ON evacuating_lrps (cell_id);
