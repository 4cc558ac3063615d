-- One durable row per transition: a lifecycle change writes its audit row in lrp_events and that row IS the message
-- (payload = the Kafka value of the lifecycle event). Commands stay in the outbox. The relay publishes both tables by a
-- cursor over (tx_id, id) and never updates a row per message; see docs/architecture.md, "Transactional outbox".
--
-- tx_id is the writing transaction's id. A row becomes relayable once tx_id < pg_snapshot_xmin(pg_current_snapshot()):
-- then no transaction that could still commit a row at or below the cursor is running, so advancing the cursor can
-- never skip a row that commits late. Rows written before this migration get tx_id 0 (below every real one).

ALTER TABLE lrp_events ADD COLUMN event_id uuid;
ALTER TABLE lrp_events ADD COLUMN payload bytea;
ALTER TABLE lrp_events ADD COLUMN tx_id xid8 NOT NULL DEFAULT '0';
ALTER TABLE lrp_events ALTER COLUMN tx_id SET DEFAULT pg_current_xact_id();
CREATE INDEX lrp_events_relay_idx ON lrp_events (tx_id, id);

ALTER TABLE outbox ADD COLUMN tx_id xid8 NOT NULL DEFAULT '0';
ALTER TABLE outbox ALTER COLUMN tx_id SET DEFAULT pg_current_xact_id();
ALTER TABLE outbox ALTER COLUMN payload TYPE bytea USING convert_to(payload, 'UTF8');
CREATE INDEX outbox_relay_idx ON outbox (tx_id, id);

CREATE TABLE relay_cursors (
    source  varchar(32) PRIMARY KEY,
    tx_id   xid8        NOT NULL,
    id      bigint      NOT NULL
);
-- Every lifecycle event written before this migration went out through the outbox already.
INSERT INTO relay_cursors (source, tx_id, id) VALUES ('lrp_events', '0', (SELECT coalesce(max(id), 0) FROM lrp_events));
-- Outbox rows not sent yet are relayed first; sent ones are behind the cursor.
INSERT INTO relay_cursors (source, tx_id, id) VALUES ('outbox', '0',
    coalesce((SELECT min(id) - 1 FROM outbox WHERE sent_at IS NULL), (SELECT coalesce(max(id), 0) FROM outbox)));

ALTER TABLE outbox DROP COLUMN sent_at;

-- Wakes the relays of every JVM when a transaction that wrote messages commits (one notification per transaction:
-- PostgreSQL folds identical notifications of one transaction into one).
CREATE FUNCTION drover_notify_relay() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('drover_relay', '');
    RETURN NULL;
END $$;
CREATE TRIGGER lrp_events_notify_relay AFTER INSERT ON lrp_events FOR EACH STATEMENT EXECUTE FUNCTION drover_notify_relay();
CREATE TRIGGER outbox_notify_relay AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION drover_notify_relay();
