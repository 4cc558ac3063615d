-- How far each stage of the start pipeline has got, so that the converger's rule 3 can tell an instance that waits in
-- a queue from one whose request was lost (docs/converger.md, "Rule 3 follows the pipeline"). "Through T" means:
-- every request made before T has been handled by that stage, or will never be.
--
-- One row per leader-run stage ('auction': the auctioneer leader's start request consumer), overwritten by whichever
-- instance leads; a cell's placements stage rides on its heartbeat.
CREATE TABLE pipeline_progress (
    stage        varchar(32)  PRIMARY KEY,
    through      timestamptz  NOT NULL,
    reported_at  timestamptz  NOT NULL
);

-- Every placement made before it has been taken up by the cell (claimed, rejected or dropped as stale); null from a
-- rep that does not say.
ALTER TABLE cells ADD COLUMN placements_through timestamptz;
