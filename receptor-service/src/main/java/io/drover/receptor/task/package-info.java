/** {@code /v1/tasks}: submit (idempotently), list, inspect, cancel and resolve run-once tasks. */
package io.drover.receptor.task;
