-- A stop asked of a cell (a restart, a scale-down, a delete of a RUNNING instance) is also a mark on the record, not
-- only a message: the owning cell's sync stops a container whose record carries it, so a stop request lost in a rep
-- crash (offsets are committed once the work is queued) is repeated within one sync interval. The mark goes with
-- the owner (a new incarnation starts unmarked); the record itself goes once the stopped container is removed.
ALTER TABLE actual_lrps ADD COLUMN stop_requested text;
