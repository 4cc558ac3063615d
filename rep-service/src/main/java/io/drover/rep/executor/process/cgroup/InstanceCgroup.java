package io.drover.rep.executor.process.cgroup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The cgroup of one instance. The rep makes it before the launch; the launched shell writes its own pid into it and
 * only then execs the workload, so every descendant is born inside: membership is exact, nothing escapes by double
 * forking or calling setsid, and the kernel enforces the limits from the first instruction.
 */
public interface InstanceCgroup {

    /** Its directories by controller ({@code memory}, {@code cpu}, ... for v1; {@code unified} for v2). */
    Map<String, Path> dirs();

    /** Makes the cgroup (and its parents) and writes the limits. */
    void create(CgroupLimits limits) throws IOException;

    /**
     * The command prefix that joins the cgroup and then execs the rest of the command line: {@code sh -c 'echo $$ >
     * .../cgroup.procs && exec "$0" "$@"'}. The shell joins before it execs, so the workload never runs outside.
     */
    List<String> joinCommand(Path sh);

    /** The pids in it now; empty once it is gone. */
    List<Long> pids();

    /** Memory and CPU time, read from the cgroup's accounting files (kept open: see {@code CgroupFile}). */
    CgroupSample sample();

    /** How many of its processes the kernel's OOM killer has killed; one small file read. */
    long oomKills();

    /** SIGKILL to every process in it with none able to fork meanwhile (freezer, or cgroup.kill on v2). */
    void kill();

    /**
     * Removes it (and closes the accounting files it keeps open); false while processes are still in it (it is then
     * left for a later attempt).
     */
    boolean remove();
}
