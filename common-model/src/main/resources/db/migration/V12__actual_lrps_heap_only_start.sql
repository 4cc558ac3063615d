-- An instance's row is rewritten at every step of its start (placed, claimed, RUNNING) and each rewrite of an indexed
-- column adds an entry to every index of the table. Two changes let the last step, CLAIMED -> RUNNING on the same cell,
-- rewrite the row in place (a heap-only tuple: no index entry at all):
--
-- * (state, since) was indexed for queries Drover no longer makes: the converger reads every row in one pass, the
--   auctioneer reads by key, the lists page by key. Every state change paid an entry in it.
-- * Pages keep a fifth free, so the new version of a row fits on the page of the old one.
--
-- In the benchmark about 80 % of the starts then write no index entry, and every other write one entry fewer
-- (docs/performance.md, "... rows rewritten in place").
DROP INDEX actual_lrps_state_since_idx;
ALTER TABLE actual_lrps SET (fillfactor = 80);
