/** Tasks, Drover's run-once work: the Task state machine, its one transition table and its only write path. */
package io.drover.model.task;
