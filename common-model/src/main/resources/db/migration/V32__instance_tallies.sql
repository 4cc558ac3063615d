-- Instances by domain and state, kept as the rows change, so that the dashboard's counts (the overview, the LRP list's
-- totals) read a few rows instead of every instance: `SELECT state, count(*) FROM actual_lrps GROUP BY state` took
-- about half a second with 1,000,000 instances (issue 41: <= 300 ms a page). An index on state would not do: every
-- state change would then write an index entry, and CLAIMED -> RUNNING would no longer rewrite its row in place (V12).
--
-- The counts are deltas, appended by statement-level triggers in the transaction that changes the rows, one row per
-- (domain, state) a statement changes (a batch of 200 starts appends two: RUNNING +200, CLAIMED -200). Appending takes
-- no lock another writer waits for, so the reps' group commits do not queue behind a counter row; the sum of a
-- (domain, state)'s rows is its count in every snapshot, exactly. The converger's leader folds the rows into one per
-- (domain, state) every few seconds (InstanceTallies.fold: a DELETE ... RETURNING and its sums, in one statement).
CREATE TABLE instance_tallies (
    domain varchar(256) NOT NULL,
    state  varchar(16)  NOT NULL,
    n      bigint       NOT NULL
);

CREATE FUNCTION instance_tallies_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO instance_tallies (domain, state, n)
    SELECT domain, state, count(*) FROM inserted GROUP BY domain, state;
    RETURN NULL;
END $$;

CREATE FUNCTION instance_tallies_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO instance_tallies (domain, state, n)
    SELECT domain, state, sum(n) FROM (
        SELECT domain, state, 1 AS n FROM after_update
        UNION ALL
        SELECT domain, state, -1 FROM before_update) AS changed
    GROUP BY domain, state HAVING sum(n) <> 0;
    RETURN NULL;
END $$;

CREATE FUNCTION instance_tallies_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO instance_tallies (domain, state, n)
    SELECT domain, state, -count(*) FROM deleted GROUP BY domain, state;
    RETURN NULL;
END $$;

CREATE FUNCTION instance_tallies_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM instance_tallies;
    RETURN NULL;
END $$;

CREATE TRIGGER actual_lrps_tally_inserts AFTER INSERT ON actual_lrps REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION instance_tallies_inserted();
CREATE TRIGGER actual_lrps_tally_updates AFTER UPDATE ON actual_lrps
    REFERENCING OLD TABLE AS before_update NEW TABLE AS after_update
    FOR EACH STATEMENT EXECUTE FUNCTION instance_tallies_updated();
CREATE TRIGGER actual_lrps_tally_deletes AFTER DELETE ON actual_lrps REFERENCING OLD TABLE AS deleted
    FOR EACH STATEMENT EXECUTE FUNCTION instance_tallies_deleted();
CREATE TRIGGER actual_lrps_tally_truncate AFTER TRUNCATE ON actual_lrps
    FOR EACH STATEMENT EXECUTE FUNCTION instance_tallies_truncated();

-- The rows already there, counted under the lock CREATE TRIGGER took (no write can come between).
INSERT INTO instance_tallies (domain, state, n) SELECT domain, state, count(*) FROM actual_lrps GROUP BY domain, state;
