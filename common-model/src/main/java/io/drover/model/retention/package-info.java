/** Retention: deleting audit rows and relayed outbox rows once they are older than their retention period. */
package io.drover.model.retention;
