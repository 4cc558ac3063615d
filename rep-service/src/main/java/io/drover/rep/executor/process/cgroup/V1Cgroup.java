package io.drover.rep.executor.process.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * An instance's cgroup in the v1 hierarchies: one directory per controller (co-mounted controllers share one). The
 * memory limit covers swap too where swap is accounted, so a workload over its limit is OOM-killed, not swapped out.
 */
final class V1Cgroup implements InstanceCgroup {

    /**
     * In the order a launch joins them: the freezer first, because the kill freezes it and the tree's members are read
     * from it, so a process is killable from its first instant; pids next, so every fork is counted.
     */
    static final List<String> CONTROLLERS = List.of("freezer", "pids", "memory", "cpu", "cpuacct");

    /** How long a kill waits for the freezer to stop every task before it signals anyway (the next tick retries). */
    private static final long FREEZE_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final Map<String, Path> dirs;

    private final CgroupFile memoryStat;

    private final CgroupFile cpuUsage;

    private final CgroupFile oomControl;

    V1Cgroup(Map<String, Path> dirs) {
        this.dirs = Map.copyOf(dirs);
        this.memoryStat = new CgroupFile(dir("memory").resolve("memory.stat"));
        this.cpuUsage = new CgroupFile(dir("cpuacct").resolve("cpuacct.usage"));
        this.oomControl = new CgroupFile(dir("memory").resolve("memory.oom_control"));
    }

    @Override
    public Map<String, Path> dirs() {
        return dirs;
    }

    @Override
    public void create(CgroupLimits limits) throws IOException {
        for (Path dir : distinctDirs()) {
            Files.createDirectories(dir);
        }
        if (limits.memoryBytes() > 0) {
            CgroupFiles.write(dir("memory").resolve("memory.limit_in_bytes"), Long.toString(limits.memoryBytes()));
            Path memsw = dir("memory").resolve("memory.memsw.limit_in_bytes");
            if (Files.exists(memsw)) {
                CgroupFiles.write(memsw, Long.toString(limits.memoryBytes()));
            }
        }
        CgroupFiles.write(dir("cpu").resolve("cpu.shares"), Integer.toString(limits.shares()));
        CgroupFiles.write(dir("pids").resolve("pids.max"), limits.pidsMax());
    }

    @Override
    public List<String> joinCommand(Path sh) {
        String joins = distinctDirs().stream()
                .map(d -> "echo $$ > " + CgroupFiles.shellQuote(d.resolve("cgroup.procs").toString()))
                .collect(Collectors.joining(" && "));
        return List.of(sh.toString(), "-c", joins + " && exec \"$0\" \"$@\"");
    }

    @Override
    public List<Long> pids() {
        return CgroupFiles.pids(dir("freezer").resolve("cgroup.procs"));
    }

    /** Memory from memory.stat alone: resident anonymous memory plus page cache, less the inactive part of it. */
    @Override
    public CgroupSample sample() {
        long[] stat = CgroupFiles.fields(memoryStat.read(), "total_rss", "total_cache", "total_inactive_file");
        return new CgroupSample(Math.max(0, stat[0] + stat[1] - stat[2]), cpuUsage.number());
    }

    @Override
    public long oomKills() {
        return oomControl.field("oom_kill");
    }

    /** Freezes the cgroup (no task runs, so none forks), SIGKILLs every task, thaws: the kills land, nobody escapes. */
    @Override
    public void kill() {
        Path state = dir("freezer").resolve("freezer.state");
        try {
            CgroupFiles.write(state, "FROZEN");
            long deadline = System.nanoTime() + FREEZE_WAIT_NANOS;
            while (!CgroupFiles.read(state).trim().equals("FROZEN") && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        } catch (IOException e) {
            // gone, or no freezer: signal what is there; the watcher's next tick signals again
        }
        CgroupFiles.kill(pids());
        try {
            CgroupFiles.write(state, "THAWED");
        } catch (IOException e) {
            // the cgroup is gone with its tasks
        }
    }

    @Override
    public boolean remove() {
        List.of(memoryStat, cpuUsage, oomControl).forEach(CgroupFile::close);
        return CgroupFiles.removeAll(distinctDirs());
    }

    private Path dir(String controller) {
        return dirs.get(controller);
    }

    private Set<Path> distinctDirs() {
        return CONTROLLERS.stream().map(dirs::get).collect(Collectors.toCollection(LinkedHashSet::new));
    }
}
