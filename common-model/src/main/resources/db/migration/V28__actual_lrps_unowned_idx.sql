-- A convergence pass reads every actual LRP that a rule may act on, not every row (docs/performance.md, "The million"):
-- the rows no cell owns (UNCLAIMED and CRASHED: by actual_lrps_owner_by_state exactly those whose cell_id is NULL)
-- are found by this index. Its predicate names cell_id, not state, so CLAIMED -> RUNNING on the same cell still
-- rewrites the row in place (V12); the rows that enter or leave it (create, claim, crash, unclaim) already write an
-- entry in actual_lrps_cell_idx or the primary key. It holds only the rows in flight: small, and empty at rest.
CREATE INDEX actual_lrps_unowned_idx ON actual_lrps (process_guid, instance_index) WHERE cell_id IS NULL;
