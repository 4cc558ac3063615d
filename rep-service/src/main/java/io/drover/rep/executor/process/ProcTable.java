package io.drover.rep.executor.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One snapshot of the machine's process table, read once per executor tick so every container of the tick shares
 * it. Reads {@code /proc}; where there is none it falls back to {@link ProcessHandle} (no sessions, no RSS).
 */
final class ProcTable {

    static final boolean PROC_AVAILABLE = Files.isReadable(Path.of("/proc/self/stat"));

    private static final Path PROC = Path.of("/proc");

    private final Map<Long, ProcStat> byPid;

    private final Map<Long, List<ProcStat>> children = new HashMap<>();

    private final Map<Long, List<ProcStat>> sessions = new HashMap<>();

    private ProcTable(Map<Long, ProcStat> byPid) {
        this.byPid = byPid;
        for (ProcStat stat : byPid.values()) {
            children.computeIfAbsent(stat.ppid(), p -> new ArrayList<>()).add(stat);
            sessions.computeIfAbsent(stat.session(), s -> new ArrayList<>()).add(stat);
        }
    }

    static ProcTable read() {
        Map<Long, ProcStat> byPid = new HashMap<>();
        if (!PROC_AVAILABLE) {
            ProcessHandle.allProcesses().map(ProcTable::fromHandle).flatMap(Optional::stream)
                    .forEach(stat -> byPid.put(stat.pid(), stat));
            return new ProcTable(byPid);
        }
        try (Stream<Path> entries = Files.list(PROC)) {
            entries.map(path -> path.getFileName().toString()).filter(ProcTable::isPid)
                    .map(name -> stat(Long.parseLong(name))).flatMap(Optional::stream)
                    .forEach(stat -> byPid.put(stat.pid(), stat));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ProcTable(byPid);
    }

    /** The current stat of one process, empty when it is gone. */
    static Optional<ProcStat> stat(long pid) {
        if (!PROC_AVAILABLE) {
            return ProcessHandle.of(pid).flatMap(ProcTable::fromHandle);
        }
        try {
            return ProcStat.parse(Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat")));
        } catch (IOException | UncheckedIOException e) {
            return Optional.empty();
        }
    }

    /** The processes among {@code pids} that are still alive (a zombie has exited), each read on its own. */
    static List<ProcStat> alive(Collection<Long> pids) {
        return pids.stream().map(ProcTable::stat).flatMap(Optional::stream).filter(ProcStat::alive).toList();
    }

    Optional<ProcStat> get(long pid) {
        return Optional.ofNullable(byPid.get(pid));
    }

    /**
     * The live members of a container's tree: its leader while it is still the same process, every process still in
     * the session the leader created (even after the leader died: daemons, orphans), processes seen in the tree
     * before (orphans re-parented to init when there is no session), and all their descendants.
     */
    List<ProcStat> members(TreeRoots roots) {
        ProcessIdentity leader = roots.leader();
        long session = roots.session();
        Map<Long, ProcStat> found = new LinkedHashMap<>();
        Deque<ProcStat> todo = new ArrayDeque<>();
        if (leader == null) {
            return List.of();
        }
        get(leader.pid()).filter(s -> s.startTime() == leader.startTime()).ifPresent(todo::add);
        if (session > 0 && sessionStillOurs(leader, session)) {
            sessions.getOrDefault(session, List.of()).stream().filter(s -> s.startTime() >= leader.startTime())
                    .forEach(todo::add);
        }
        roots.known().forEach(k -> get(k.pid()).filter(s -> s.startTime() == k.startTime()).ifPresent(todo::add));
        while (!todo.isEmpty()) {
            ProcStat next = todo.pop();
            if (next.alive() && found.putIfAbsent(next.pid(), next) == null) {
                todo.addAll(children.getOrDefault(next.pid(), List.of()));
            }
        }
        return List.copyOf(found.values());
    }

    /**
     * A session id is its leader's pid, and the kernel does not hand out a pid again while any process still uses it
     * as a session or group id. So when another process holds the leader's pid now, our session is empty and every
     * process in a session of that id belongs to someone else.
     */
    private boolean sessionStillOurs(ProcessIdentity leader, long session) {
        ProcStat holder = byPid.get(session);
        return holder == null || holder.startTime() == leader.startTime();
    }

    static long rssBytes(Collection<ProcStat> members) {
        return members.stream().mapToLong(ProcStat::rssPages).sum() * Kernel.PAGE_SIZE;
    }

    /** CPU time of the members and of the children they reaped, in nanoseconds. */
    static long cpuNanos(Collection<ProcStat> members) {
        return members.stream().mapToLong(ProcStat::cpuTicks).sum() * (1_000_000_000L / Kernel.CLOCK_TICKS);
    }

    private static boolean isPid(String name) {
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
    }

    private static Optional<ProcStat> fromHandle(ProcessHandle handle) {
        long start = handle.info().startInstant().map(i -> i.toEpochMilli()).orElse(0L);
        long parent = handle.parent().map(ProcessHandle::pid).orElse(0L);
        long cpuTicks = handle.info().totalCpuDuration().map(d -> d.toMillis() * Kernel.CLOCK_TICKS / 1000).orElse(0L);
        return Optional.of(new ProcStat(handle.pid(), parent, 0, handle.isAlive() ? 'R' : 'X', start, 0, cpuTicks));
    }

    /** The kernel's page size and clock tick rate, for turning RSS pages into bytes and CPU ticks into time. */
    private static final class Kernel {

        static final long PAGE_SIZE = getconf("PAGESIZE", 4096);

        static final long CLOCK_TICKS = getconf("CLK_TCK", 100);

        private static long getconf(String name, long fallback) {
            try {
                Process getconf = new ProcessBuilder("getconf", name).redirectErrorStream(true).start();
                String out = new String(getconf.getInputStream().readAllBytes()).trim();
                long value = getconf.waitFor() == 0 ? Long.parseLong(out) : fallback;
                return value > 0 ? value : fallback;
            } catch (IOException | NumberFormatException e) {
                return fallback;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return fallback;
            }
        }
    }
}
