package io.drover.rep.executor.process;

/** A process for good: its pid and its start time, so a pid reused by another program is never mistaken for it. */
record ProcessIdentity(long pid, long startTime) {

    static ProcessIdentity of(ProcStat stat) {
        return new ProcessIdentity(stat.pid(), stat.startTime());
    }
}
