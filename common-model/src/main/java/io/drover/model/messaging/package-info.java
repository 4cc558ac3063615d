/** The Kafka contract (topics and message records) and the transactional outbox that is the only way messages leave. */
package io.drover.model.messaging;
