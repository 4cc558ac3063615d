package io.drover.model.messaging;

/**
 * A message that leaves through the {@link Outbox}: its type travels with it as the record header
 * {@link Topics#MESSAGE_TYPE_HEADER}, so a topic may carry several kinds of message (an auction result for instances,
 * one for tasks) and a consumer tells them apart before it parses anything. A record without the header was written
 * before types were (issue 35) and has its topic's original shape.
 */
public interface Command {

    /** The header's value, snake_case (e.g. {@code tasks_placed}); fixed per record type, part of the contract. */
    String messageType();
}
