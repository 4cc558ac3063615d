-- A cell whose rep runs every instance in a container of an OCI runtime registers isolation CONTAINERS (issue 43).
ALTER TABLE cells DROP CONSTRAINT IF EXISTS cells_isolation_check;
ALTER TABLE cells ADD CONSTRAINT cells_isolation_check
    CHECK (isolation IN ('CGROUPS_V1', 'CGROUPS_V2', 'SAMPLING', 'SIMULATED', 'CONTAINERS', 'UNKNOWN'));
