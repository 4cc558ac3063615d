package io.drover.rep.executor.process;

import java.util.Set;

/**
 * What identifies a container's tree in a process table: the leader (null when nothing was launched), the session
 * it leads (0 without setsid) and the members seen on the last tick (orphans re-parented away from the leader).
 */
record TreeRoots(ProcessIdentity leader, long session, Set<ProcessIdentity> known) {
}
