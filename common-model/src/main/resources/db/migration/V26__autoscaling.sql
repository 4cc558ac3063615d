-- Issue 40: autoscaling on what the cells already measure (SPEC 17).

-- A desired LRP's autoscaling policy, as the JSON the lifecycle wrote ({"min_instances", "max_instances",
-- "target_cpu_percent", "target_memory_percent", "scale_up_delay", "scale_down_delay"}); null: none. Part of the
-- desired LRP: written by its lifecycle with its version and its events.
ALTER TABLE desired_lrps ADD COLUMN autoscaling text;
-- The autoscaler reads the autoscaled LRPs every tick: only those rows.
CREATE INDEX desired_lrps_autoscaled_idx ON desired_lrps (process_guid) WHERE autoscaling IS NOT NULL;

-- What the autoscaler (the converger's leader) last decided for each autoscaled LRP, so that a new leader continues
-- where the old one stopped: the means it measured (null: no data), the instances it counted, the size it computed,
-- why (condition), the recommendations of its stabilisation windows ([[epoch ms, instances], ...], the longer window's
-- worth) and its last scale. Not lifecycle state: no version, no event (the scale itself is the desired LRP's update,
-- with its event and audit row); written by the leader only, fenced by its lock.
CREATE TABLE autoscaler_states (
    process_guid       varchar(128)     PRIMARY KEY REFERENCES desired_lrps (process_guid) ON DELETE CASCADE,
    evaluated_at       timestamptz      NOT NULL,
    cpu_percent        double precision,
    memory_percent     double precision,
    counted_instances  integer          NOT NULL CHECK (counted_instances >= 0),
    computed_instances integer          NOT NULL CHECK (computed_instances >= 0),
    condition          text             NOT NULL,
    recommendations    text             NOT NULL DEFAULT '[]',
    last_scale_at      timestamptz,
    last_scale_from    integer,
    last_scale_to      integer,
    last_scale_reason  text
);

-- One row per autoscaled LRP and autoscaler tick: the mean CPU and memory it measured and the instances the LRP had,
-- for the dashboard's chart of the last 30 minutes. Rows older than that are deleted by the autoscaler.
CREATE TABLE autoscaler_samples (
    process_guid   varchar(128)     NOT NULL REFERENCES desired_lrps (process_guid) ON DELETE CASCADE,
    at             timestamptz      NOT NULL,
    cpu_percent    double precision,
    memory_percent double precision,
    instances      integer          NOT NULL,
    PRIMARY KEY (process_guid, at)
);
