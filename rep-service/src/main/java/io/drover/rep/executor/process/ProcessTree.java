package io.drover.rep.executor.process;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How to find one container's processes in a process table: its leader (pid and start time), the session the leader
 * created, the members seen on the last tick (orphans re-parented away from the leader), and its running monitors.
 */
final class ProcessTree {

    private final Set<ProcessIdentity> monitors = new HashSet<>();

    private ProcessIdentity leader;

    private long session;

    private Set<ProcessIdentity> known = Set.of();

    synchronized void lead(ProcessIdentity identity, long leaderSession) {
        this.leader = identity;
        this.session = leaderSession;
    }

    synchronized ProcessIdentity leader() {
        return leader;
    }

    synchronized long session() {
        return session;
    }

    synchronized TreeRoots roots() {
        Set<ProcessIdentity> seen = new HashSet<>(known);
        seen.addAll(monitors);
        return new TreeRoots(leader, session, seen);
    }

    /** Keeps the members of this tick, so the next finds them even if they left the session and their parent died. */
    synchronized void remember(Collection<ProcStat> members) {
        known = members.stream().map(ProcessIdentity::of).collect(Collectors.toUnmodifiableSet());
    }

    /** A monitor run counts as part of the tree while it runs, so a stop or crash kills it with the rest. */
    synchronized void monitorRunning(ProcessIdentity monitor, boolean running) {
        if (running) {
            monitors.add(monitor);
        } else {
            monitors.remove(monitor);
        }
    }
}
