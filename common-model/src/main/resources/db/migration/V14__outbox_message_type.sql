-- Commands carry their type (issue 35). The per-cell topics now carry several kinds of message (an auction result for
-- instances, one for tasks; an instance's stop request, a task's cancel), told apart by a record header the relay
-- writes from this column (drover-message-type), as lifecycle events carry theirs (drover-event-type) from
-- lrp_events.event_type. Rows written before this migration have none and are relayed without the header: a consumer
-- reads such a record in its topic's original shape. Nullable without a default: no rewrite of the table.
ALTER TABLE outbox ADD COLUMN message_type varchar(64);
