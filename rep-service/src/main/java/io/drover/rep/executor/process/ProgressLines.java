package io.drover.rep.executor.process;

/**
 * Where an {@code emit_progress} action's messages go: the instance's journal, as lines of the rep's own (source
 * {@code rep}, beside claimed, started, crashed ...), so whoever reads the instance's log through the API sees the
 * steps between the process's output.
 */
final class ProgressLines {

    void emit(InstanceJournal journal, String message) {
        if (message == null || message.isEmpty()) {
            return;
        }
        // what the steps before printed comes first: their output is in the files, not yet in the journal
        journal.ingest();
        journal.rep(message.replace('\n', ' '));
    }
}
