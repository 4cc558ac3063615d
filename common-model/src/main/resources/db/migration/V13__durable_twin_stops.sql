-- A twin's stop is a mark on the twin, as an ordinary record's is (V7): a draining cell's or a deployment's old
-- instance asked to stop (its slot retired, or the deployment's new instance proved healthy) keeps the mark until its
-- cell has stopped the container and removed the twin, so a stop request lost on the way (a rep killed after it read
-- the message) is repeated by that cell's next sync instead of leaving the old instance serving. A twin with the mark
-- serves no more as far as rollouts are concerned.
ALTER TABLE evacuating_lrps ADD COLUMN stop_requested text;
