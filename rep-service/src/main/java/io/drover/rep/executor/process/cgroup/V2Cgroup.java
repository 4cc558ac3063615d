package io.drover.rep.executor.process.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * An instance's cgroup in the unified (v2) hierarchy: one directory, a leaf. Its parents up to the rep's base get the
 * memory, pids and cpu controllers enabled for their children; the base itself was prepared when cgroups were
 * detected. Swap is switched off for it, so a workload over its memory limit is OOM-killed, not swapped out.
 */
final class V2Cgroup implements InstanceCgroup {

    static final String KEY = "unified";

    static final String CONTROLLERS = "+memory +pids +cpu";

    private static final long FREEZE_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final Path dir;

    private final Path base;

    private final CgroupFile memoryCurrent;

    private final CgroupFile memoryStat;

    private final CgroupFile cpuStat;

    private final CgroupFile memoryEvents;

    V2Cgroup(Path dir, Path base) {
        this.dir = dir;
        this.base = base;
        this.memoryCurrent = new CgroupFile(dir.resolve("memory.current"));
        this.memoryStat = new CgroupFile(dir.resolve("memory.stat"));
        this.cpuStat = new CgroupFile(dir.resolve("cpu.stat"));
        this.memoryEvents = new CgroupFile(dir.resolve("memory.events"));
    }

    @Override
    public Map<String, Path> dirs() {
        return Map.of(KEY, dir);
    }

    @Override
    public void create(CgroupLimits limits) throws IOException {
        Files.createDirectories(dir);
        for (Path parent = dir.getParent(); parent != null && parent.startsWith(base); parent = parent.getParent()) {
            CgroupFiles.write(parent.resolve("cgroup.subtree_control"), CONTROLLERS);
        }
        if (limits.memoryBytes() > 0) {
            CgroupFiles.write(dir.resolve("memory.max"), Long.toString(limits.memoryBytes()));
            Path swap = dir.resolve("memory.swap.max");
            if (Files.exists(swap)) {
                CgroupFiles.write(swap, "0");
            }
        }
        CgroupFiles.write(dir.resolve("cpu.weight"), Integer.toString(limits.weight()));
        CgroupFiles.write(dir.resolve("pids.max"), limits.pidsMax());
    }

    @Override
    public List<String> joinCommand(Path sh) {
        return List.of(sh.toString(), "-c", "echo $$ > " + CgroupFiles.shellQuote(dir.resolve("cgroup.procs")
                .toString()) + " && exec \"$0\" \"$@\"");
    }

    @Override
    public List<Long> pids() {
        return CgroupFiles.pids(dir.resolve("cgroup.procs"));
    }

    @Override
    public CgroupSample sample() {
        long inactiveFile = memoryStat.field("inactive_file");
        return new CgroupSample(Math.max(0, memoryCurrent.number() - inactiveFile),
                cpuStat.field("usage_usec") * 1000);
    }

    @Override
    public long oomKills() {
        return memoryEvents.field("oom_kill");
    }

    /** cgroup.kill (Linux 5.14+) kills the whole cgroup atomically; older kernels freeze, kill and thaw. */
    @Override
    public void kill() {
        Path killFile = dir.resolve("cgroup.kill");
        try {
            if (Files.exists(killFile)) {
                CgroupFiles.write(killFile, "1");
                return;
            }
            CgroupFiles.write(dir.resolve("cgroup.freeze"), "1");
            long deadline = System.nanoTime() + FREEZE_WAIT_NANOS;
            while (CgroupFiles.field(dir.resolve("cgroup.events"), "frozen") != 1 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        } catch (IOException e) {
            // gone: signal what is left; the watcher's next tick signals again
        }
        CgroupFiles.kill(pids());
        try {
            CgroupFiles.write(dir.resolve("cgroup.freeze"), "0");
        } catch (IOException e) {
            // gone with its tasks
        }
    }

    @Override
    public boolean remove() {
        List.of(memoryCurrent, memoryStat, cpuStat, memoryEvents).forEach(CgroupFile::close);
        return CgroupFiles.removeAll(List.of(dir));
    }
}
