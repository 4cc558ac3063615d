-- The last pass of each leader-run loop (the converger's 'convergence'), so that any service can show it: one row per
-- loop, overwritten by each pass of whichever instance leads.
CREATE TABLE leader_passes (
    name         varchar(64)   PRIMARY KEY,
    holder       varchar(256)  NOT NULL,
    finished_at  timestamptz   NOT NULL,
    duration_ms  double precision NOT NULL,
    actions      integer       NOT NULL
);
