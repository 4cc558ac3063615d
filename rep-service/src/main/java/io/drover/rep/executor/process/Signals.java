package io.drover.rep.executor.process;

import java.util.Collection;

/**
 * Sends SIGTERM or SIGKILL to every member of a tree, one by one. The executor repeats a kill on every tick until the
 * tree is empty, so a process forked between the scan and the signal is caught by the next round.
 */
final class Signals {

    private static final long SELF = ProcessHandle.current().pid();

    private Signals() {
    }

    static void terminate(Collection<ProcStat> members) {
        members.stream().filter(m -> m.pid() != SELF)
                .forEach(m -> ProcessHandle.of(m.pid()).ifPresent(ProcessHandle::destroy));
    }

    static void kill(Collection<ProcStat> members) {
        members.stream().filter(m -> m.pid() != SELF)
                .forEach(m -> ProcessHandle.of(m.pid()).ifPresent(ProcessHandle::destroyForcibly));
    }
}
