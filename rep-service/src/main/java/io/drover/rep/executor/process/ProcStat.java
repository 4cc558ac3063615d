package io.drover.rep.executor.process;

import java.util.Optional;

/**
 * The fields of {@code /proc/<pid>/stat} the executor needs. {@code startTime} (field 22, clock ticks since boot)
 * together with the pid identifies a process for good: a reused pid comes with a later start time. {@code cpuTicks} is
 * its user and system time plus that of the children it has waited for (fields 14 to 17).
 */
record ProcStat(long pid, long ppid, long session, char state, long startTime, long rssPages, long cpuTicks) {

    /** A zombie has exited; only its parent's wait is missing (and PID 1 in a container may never do it). */
    boolean alive() {
        return state != 'Z' && state != 'X';
    }

    /** Parses one stat line; the command name may hold spaces and ')', so fields are counted after the last ')'. */
    static Optional<ProcStat> parse(String line) {
        int open = line.indexOf(" (");
        int close = line.lastIndexOf(')');
        if (open < 0 || close < open) {
            return Optional.empty();
        }
        String[] fields = line.substring(close + 2).trim().split(" ");
        if (fields.length < 22) {
            return Optional.empty();
        }
        try {
            long cpuTicks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]) + Long.parseLong(fields[13])
                    + Long.parseLong(fields[14]);
            return Optional.of(new ProcStat(Long.parseLong(line.substring(0, open).trim()), Long.parseLong(fields[1]),
                    Long.parseLong(fields[3]), fields[0].charAt(0), Long.parseLong(fields[19]),
                    Long.parseLong(fields[21]), cpuTicks));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
