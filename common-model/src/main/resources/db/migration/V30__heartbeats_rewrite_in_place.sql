-- Every heartbeat rewrites its cell's row and its presence lock (expires_at moves on), and a cluster of 10,000 cells
-- beats 2,000 times a second for each. The index on cells.expires_at made every one of those rewrites a new row
-- version with a new entry in both of the table's indexes (0 of 20,003 heartbeat updates heap-only, measured at the
-- million, docs/performance.md), and full pages did the same to the locks (a quarter heap-only). Two changes let a
-- beat rewrite both rows in place (heap-only tuples: no index entry at all):
--
-- * cells.expires_at is not indexed: the live cells are nearly all the rows, and every reader (the auction's cells,
--   the converger's census and its expired cells, the lists) reads the whole small table anyway.
-- * Pages of cells and leader_locks keep half their space free, so a row's new version fits on the page of the old
--   one. (Pages written before this migration keep their fill until their rows move.)
DROP INDEX cells_expires_at_idx;
ALTER TABLE cells SET (fillfactor = 50);
ALTER TABLE leader_locks SET (fillfactor = 50);
