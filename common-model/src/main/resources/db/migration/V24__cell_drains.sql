-- Issue 38 (SPEC 18): an operator drains a cell through the API, and the drain is state in PostgreSQL, so it survives
-- a restart of the rep and of the receptor.
--
-- Two owners, two sets of columns. The operator's intent (drain_*) is written only by the API (CellDrains): when the
-- drain was asked, until when the instances may take to move, and who asked; null when the cell is not to drain. A
-- heartbeat never writes it. The rep's progress is the state its heartbeats write, as before (ACTIVE, EVACUATING),
-- plus DRAINED: the operator's drain is done, nothing runs there, and the cell stays, heartbeating and taking no work,
-- until the operator undrains it. A rep also says how long its own drains may take (evacuation_deadline_s), which is
-- the deadline of an operator's drain that names none.
ALTER TABLE cells DROP CONSTRAINT cells_state_check;
ALTER TABLE cells ADD CONSTRAINT cells_state_check CHECK (state IN ('ACTIVE', 'EVACUATING', 'DRAINED'));
ALTER TABLE cells
    ADD COLUMN drain_requested_at    timestamptz,
    ADD COLUMN drain_deadline_at     timestamptz,
    ADD COLUMN drain_requested_by    varchar(256),
    ADD COLUMN evacuation_deadline_s integer CHECK (evacuation_deadline_s > 0);
ALTER TABLE cells ADD CONSTRAINT cells_drain_whole
    CHECK ((drain_requested_at IS NULL) = (drain_deadline_at IS NULL)
        AND (drain_requested_at IS NULL) = (drain_requested_by IS NULL));

-- Drains and undrains are audited, and each is a cell_changed lifecycle event (entity 'cell', keyed by the cell id).
ALTER TABLE lrp_events DROP CONSTRAINT lrp_events_entity_check;
ALTER TABLE lrp_events ADD CONSTRAINT lrp_events_entity_check
    CHECK (entity IN ('desired', 'actual', 'task', 'deployment', 'cell'));
