-- Issue 37: a task's writes maintain one index fewer, and a submission's admission counts only its domain's unfinished
-- tasks.
--
-- tasks_state_updated_idx (state, updated_at) changed with every transition of every task (a new entry for each of the
-- four updates and the insert), and served one query: the admission's count of a domain's PENDING and RUNNING tasks,
-- which read through it every unfinished task of every domain and then filtered by domain. The partial index below
-- holds a task only while it is unfinished (an entry at the insert and one at the start, none once it completes) and
-- answers that count with a seek into the domain's own entries.
DROP INDEX tasks_state_updated_idx;
CREATE INDEX tasks_unfinished_idx ON tasks (domain) WHERE state IN ('PENDING', 'RUNNING');
