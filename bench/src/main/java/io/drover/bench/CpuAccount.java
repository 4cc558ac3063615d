package io.drover.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Where the machine's CPU went during a scenario: this JVM by thread group (each service's threads have their own
 * names), the PostgreSQL server processes, and everything else on the machine. Read from {@code /proc} and the JVM's
 * thread CPU clocks; on a system without {@code /proc} only the JVM's share is reported.
 */
final class CpuAccount {

    private static final double TICKS_PER_SECOND = 100.0; // USER_HZ on Linux
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** HotSpot's per-thread count of the bytes a thread allocated (exact, unlike JFR's samples). */
    private static final com.sun.management.ThreadMXBean ALLOCATIONS = (com.sun.management.ThreadMXBean) THREADS;
    /** The group of the benchmark's own threads (see {@link BenchThreads}), left out of Drover's CPU. */
    static final String BENCHMARK = "the benchmark's clients";

    private final long wallNanos;
    private final double machineBusy;
    private final double machineTotal;
    private final double machineStolen;
    private final double postgres;
    private final Map<Long, Double> postgresProcesses;
    private final Map<Long, String> postgresRoles;
    private final double process;
    private final Map<Long, Long> threadNanos;
    private final Map<Long, Long> threadBytes;
    private final Map<Long, String> threadGroups;
    private final VmThreads vm;
    private final double services;

    private CpuAccount(long wallNanos, double[] machine, Map<Long, Double> postgresProcesses,
            Map<Long, String> postgresRoles, double process, Map<Long, Long> threadNanos, Map<Long, Long> threadBytes,
            Map<Long, String> threadGroups, VmThreads vm, double services) {
        this.wallNanos = wallNanos;
        this.vm = vm;
        this.services = services;
        this.process = process;
        this.machineBusy = machine[0];
        this.machineTotal = machine[1];
        this.machineStolen = machine[2];
        this.postgresProcesses = postgresProcesses;
        this.postgresRoles = postgresRoles;
        this.postgres = postgresProcesses.values().stream().mapToDouble(Double::doubleValue).sum();
        this.threadNanos = threadNanos;
        this.threadBytes = threadBytes;
        this.threadGroups = threadGroups;
    }

    static CpuAccount now() {
        Seen.sample();
        Map<Long, String> roles;
        try {
            roles = Map.copyOf(roleNames.get());
        } catch (RuntimeException e) {
            roles = Map.of(); // the server is restarting: every process is then "other"
        }
        return new CpuAccount(System.nanoTime(), machineSeconds(), postgresProcesses(), roles, processSeconds(),
                new HashMap<>(Seen.CPU), new HashMap<>(Seen.ALLOCATED), new HashMap<>(Seen.GROUPS), VmThreads.read(),
                servicesSeconds());
    }

    /** What each PostgreSQL process serves (pid to role), read at each account; nothing until the benchmark says. */
    private static volatile Supplier<Map<Long, String>> roleNames = Map::of;

    /**
     * Names PostgreSQL's processes by what they serve, for {@link #postgresByRole}: a backend by the service its
     * connection names ({@code application_name}), the server's own processes by their type.
     */
    static void namePostgresProcesses(Supplier<Map<Long, String>> roles) {
        roleNames = roles;
    }

    /**
     * PostgreSQL's core-ms per {@code unit} since {@code before}, by role, largest first: the backends of each service,
     * the server's own processes (WAL writer, checkpointer, autovacuum, ...), and backends that ended in between with
     * the postmaster (which collects their CPU) as the rest.
     */
    String postgresByRole(CpuAccount before, long units) {
        double per = 1000.0 / Math.max(1, units);
        Map<String, Double> byRole = new HashMap<>();
        postgresProcesses.forEach((pid, seconds) -> {
            String role = postgresRoles.get(pid);
            if (role != null) {
                byRole.merge(role, seconds - before.postgresProcesses.getOrDefault(pid, 0.0), Double::sum);
            }
        });
        double named = byRole.values().stream().mapToDouble(Double::doubleValue).sum();
        byRole.put("ended backends and the postmaster", postgres - before.postgres - named);
        return byRole.entrySet().stream().filter(e -> e.getValue() * per >= 0.005)
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .map(e -> "%s %.2f".formatted(e.getKey(), e.getValue() * per)).collect(Collectors.joining(", "));
    }

    /** The processes of Drover's services when they run apart from this JVM ({@code --separate-jvms}). */
    private static final List<Long> SERVICE_PIDS = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Counts these processes (Drover's services in JVMs of their own) as Drover's, beside this JVM's threads. */
    static void countServiceProcesses(List<Long> pids) {
        SERVICE_PIDS.addAll(pids);
    }

    /**
     * The last CPU time and allocated bytes seen of every thread this JVM ran, sampled every 200 ms and at each account:
     * a thread that ends during a scenario (an idle Tomcat worker after the burst) keeps what it used instead of
     * vanishing into the process total.
     */
    private static final class Seen {

        static final Map<Long, Long> CPU = new ConcurrentHashMap<>();
        static final Map<Long, Long> ALLOCATED = new ConcurrentHashMap<>();
        static final Map<Long, String> GROUPS = new ConcurrentHashMap<>();

        static {
            Thread t = new Thread(() -> {
                while (true) {
                    sample();
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, BenchThreads.PREFIX + "cpu-account");
            t.setDaemon(true);
            t.start();
        }

        static synchronized void sample() {
            for (long id : THREADS.getAllThreadIds()) {
                long cpu = THREADS.getThreadCpuTime(id);
                if (cpu < 0) {
                    continue;
                }
                if (!GROUPS.containsKey(id)) {
                    ThreadInfo info = THREADS.getThreadInfo(id);
                    if (info == null) {
                        continue;
                    }
                    GROUPS.put(id, BenchThreads.isBenchmarks(id, info.getThreadName()) ? BENCHMARK
                            : group(info.getThreadName()));
                }
                CPU.put(id, cpu);
                long allocated = ALLOCATIONS.getThreadAllocatedBytes(id);
                if (allocated >= 0) {
                    ALLOCATED.put(id, allocated);
                }
            }
        }
    }

    /** Core-seconds this JVM's threads of one group ({@link #group}) used since {@code before}. */
    double groupSeconds(CpuAccount before, String group) {
        double seconds = 0;
        for (var e : threadNanos.entrySet()) {
            if (group.equals(threadGroups.get(e.getKey()))) {
                seconds += (e.getValue() - before.threadNanos.getOrDefault(e.getKey(), 0L)) / 1e9;
            }
        }
        return seconds;
    }

    /** One line: core-seconds used by the machine, the JVM's busiest thread groups, PostgreSQL and the rest. */
    String since(CpuAccount before) {
        double wall = (wallNanos - before.wallNanos) / 1e9;
        double cores = Runtime.getRuntime().availableProcessors();
        Map<String, Double> byGroup = new HashMap<>();
        threadNanos.forEach((id, cpu) -> byGroup.merge(threadGroups.get(id),
                (cpu - before.threadNanos.getOrDefault(id, 0L)) / 1e9, Double::sum));
        double threads = byGroup.values().stream().mapToDouble(Double::doubleValue).sum();
        // the process clock also counts the VM's own threads (GC, JIT compilers), which Java cannot list
        double jvm = Math.max(threads, process - before.process);
        double gc = vm.gc() - before.vm.gc();
        double jit = vm.jit() - before.vm.jit();
        byGroup.put("GC threads", gc);
        byGroup.put("JIT compilers", jit);
        byGroup.put("other VM threads", Math.max(0, jvm - threads - gc - jit));
        double busy = machineBusy - before.machineBusy;
        double pg = postgres - before.postgres;
        double apart = services - before.services;
        String top = byGroup.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .limit(8).map(e -> "%s %.0f".formatted(e.getKey(), e.getValue())).collect(Collectors.joining(", "));
        double total = machineTotal - before.machineTotal;
        double idlePercent = total > 0 ? 100 * (1 - busy / total) : Double.NaN;
        double stolenPercent = total > 0 ? 100 * (machineStolen - before.machineStolen) / total : Double.NaN;
        return ("CPU over %.0f s on %.0f cores: %.0f core-s busy (%.0f %% idle, %.0f %% stolen by the hypervisor); "
                + "this JVM %.0f core-s (%s), %sPostgreSQL %.0f core-s, other processes %.0f core-s").formatted(wall,
                cores, busy, idlePercent, stolenPercent,
                jvm, top, SERVICE_PIDS.isEmpty() ? "" : "the services' own JVMs %.0f core-s, ".formatted(apart), pg,
                Math.max(0, busy - jvm - apart - pg));
    }

    /**
     * The core-seconds spent since {@code before}: the whole machine, this JVM (with GC, JIT and the VM's other
     * threads, which Java cannot list; also given apart) and the PostgreSQL server.
     */
    Usage usage(CpuAccount before) {
        double threads = 0;
        double bench = 0;
        for (var e : threadNanos.entrySet()) {
            double used = (e.getValue() - before.threadNanos.getOrDefault(e.getKey(), 0L)) / 1e9;
            threads += used;
            if (BENCHMARK.equals(threadGroups.get(e.getKey()))) {
                bench += used;
            }
        }
        double jvm = Math.max(threads, process - before.process);
        long allocated = 0;
        for (var e : threadBytes.entrySet()) {
            if (!BENCHMARK.equals(threadGroups.get(e.getKey()))) {
                allocated += e.getValue() - before.threadBytes.getOrDefault(e.getKey(), 0L);
            }
        }
        return new Usage(machineBusy - before.machineBusy, jvm, jvm - threads, vm.gc() - before.vm.gc(),
                vm.jit() - before.vm.jit(), bench, services - before.services, postgres - before.postgres, allocated);
    }

    /**
     * Core-seconds of one interval; {@code vmThreads} is the part of {@code jvm} that GC, JIT and the VM used, of which
     * {@code gc} the collector's threads and {@code jit} the compilers; {@code bench} the part of {@code jvm} that the
     * benchmark's own clients used; {@code services} what the services' own JVMs used when they run apart (their GC
     * and JIT are in it, not in {@code gc} and {@code jit}); {@code allocated} the bytes this JVM's threads allocated,
     * the benchmark's clients left out.
     */
    record Usage(double machine, double jvm, double vmThreads, double gc, double jit, double bench, double services,
            double postgres, long allocated) {

        /** What Drover used: its JVMs (this one without the benchmark's clients, and the services' own), PostgreSQL. */
        double drover() {
            return droverJvm() + postgres;
        }

        double droverJvm() {
            return jvm - bench + services;
        }

        /** What every other process on the machine used: other people's work, when the machine is shared. */
        double others() {
            return Math.max(0, machine - jvm - services - postgres);
        }

        /** "12 of 80 core-s (15 %)": the other processes' share of what the machine spent. */
        String othersShare() {
            return "%.0f of %.0f core-s (%.0f %%)".formatted(others(), machine, machine > 0 ? 100 * others() / machine
                    : 0);
        }

        /** "of which GC a, JIT b, other VM threads c" in core-ms per {@code unit}. */
        String vmSplit(long units) {
            double per = 1000.0 / Math.max(1, units);
            return "of which GC %.2f, JIT %.2f, other VM threads %.2f".formatted(gc * per, jit * per,
                    Math.max(0, vmThreads - gc - jit) * per);
        }
    }

    /**
     * CPU seconds of the VM's own threads, which Java cannot list, from {@code /proc/self/task}: the collector's (G1's
     * and Parallel's workers, concurrent and refinement threads) and the JIT compilers'. Zeros without {@code /proc}.
     */
    record VmThreads(double gc, double jit) {

        static VmThreads read() {
            double gc = 0;
            double jit = 0;
            try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
                for (Path task : (Iterable<Path>) tasks::iterator) {
                    try {
                        String stat = Files.readString(task.resolve("stat"));
                        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                        List<String> f = List.of(stat.substring(stat.lastIndexOf(')') + 2).split(" "));
                        double seconds = (Long.parseLong(f.get(11)) + Long.parseLong(f.get(12))) / TICKS_PER_SECOND;
                        if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
                            jit += seconds;
                        } else if (name.startsWith("GC Thread") || name.startsWith("G1 ")
                                || name.startsWith("ParGC")) {
                            gc += seconds;
                        }
                    } catch (IOException | RuntimeException e) {
                        // the thread ended while we read it
                    }
                }
            } catch (IOException | RuntimeException e) {
                return new VmThreads(0, 0);
            }
            return new VmThreads(gc, jit);
        }
    }

    /** Thread names without their numbers, so one pool is one group ("rep-worker-7" is "rep-worker"). */
    static String group(String threadName) {
        String name = threadName.replaceAll("\\d+", "").replaceAll("[-_#.|\\s]+$", "");
        if (name.startsWith("http-nio")) {
            return "receptor http";
        }
        if (name.startsWith("kafka-producer-network-thread")) {
            return "kafka producers";
        }
        if (name.startsWith("data-plane-kafka") || name.startsWith("kafka-") || name.startsWith("quorum-controller")
                || name.startsWith("group-coordinator") || name.startsWith("broker-")) {
            return "kafka broker";
        }
        if (name.contains("KafkaListenerEndpointContainer") || name.contains("Container-C")) {
            return "kafka listeners (" + name.replaceAll("-C.*", "") + ")";
        }
        return name.isEmpty() ? "unnamed" : name;
    }

    private static double processSeconds() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() / 1e9 : 0;
    }

    /**
     * Busy, total and stolen jiffies of all cores since boot, in seconds; zeros without {@code /proc}. Stolen time
     * (the hypervisor ran something else on this machine's virtual cores) counts as busy: the machine did not have it.
     */
    private static double[] machineSeconds() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < f.length; i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
            long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
            return new double[] {(total - idle) / TICKS_PER_SECOND, total / TICKS_PER_SECOND,
                    steal / TICKS_PER_SECOND};
        } catch (IOException | RuntimeException e) {
            return new double[] {0, 0, 0};
        }
    }

    private static double servicesSeconds() {
        double total = 0;
        for (long pid : SERVICE_PIDS) {
            total += processSeconds(Path.of("/proc", Long.toString(pid)));
        }
        return total;
    }

    /** User and system CPU seconds of one process (its own threads), 0 once it ended. */
    private static double processSeconds(Path proc) {
        try {
            String stat = Files.readString(proc.resolve("stat"));
            List<String> f = List.of(stat.substring(stat.lastIndexOf(')') + 2).split(" "));
            return (Long.parseLong(f.get(11)) + Long.parseLong(f.get(12))) / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The PostgreSQL backends that serve the benchmark's own queries (its progress polls, its statistics). */
    private static final Set<Long> BENCHMARK_BACKENDS = ConcurrentHashMap.newKeySet();

    /**
     * Leaves the PostgreSQL backend with this pid out of PostgreSQL's CPU, as the benchmark's client threads are left
     * out of the JVM's: counting 100,000 rows every 2 s to see P1 end is the benchmark's work, not Drover's. Call it
     * before the first account.
     */
    static void leaveOutPostgresBackend(long pid) {
        BENCHMARK_BACKENDS.add(pid);
    }

    /** The postmaster of the cluster's PostgreSQL server; 0 until the benchmark says (every server counts then). */
    private static volatile long postmaster;

    /**
     * Counts only the processes of the PostgreSQL server that runs the backend {@code backendPid} (its postmaster, the
     * postmaster's children): on a machine shared with other work, other servers' processes are also named
     * {@code postgres}, and counting them made other people's databases look like Drover's (on 2026-12-03, 105
     * {@code postgres} processes ran on this machine beside the benchmark's 20 or so).
     */
    static void onlyPostgresServerOf(long backendPid) {
        long parent = parentOf(Path.of("/proc", Long.toString(backendPid)));
        if (parent > 1) {
            postmaster = parent;
        }
    }

    private static long parentOf(Path proc) {
        try {
            String stat = Files.readString(proc.resolve("stat"));
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[1]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * CPU seconds of every live process named {@code postgres} (the embedded server and its backends; only those of the
     * cluster's server once {@link #onlyPostgresServerOf} was told) but the benchmark's own backends, by pid.
     */
    private static Map<Long, Double> postgresProcesses() {
        Map<Long, Double> seconds = new HashMap<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).forEach(p -> {
                long pid = Long.parseLong(p.getFileName().toString());
                double used = BENCHMARK_BACKENDS.contains(pid) ? 0 : postgresProcessSeconds(p);
                if (used > 0) {
                    seconds.put(pid, used);
                }
            });
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        return seconds;
    }

    private static double postgresProcessSeconds(Path proc) {
        try {
            String stat = Files.readString(proc.resolve("stat"));
            int close = stat.lastIndexOf(')');
            if (!stat.substring(stat.indexOf('(') + 1, close).equals("postgres")) {
                return 0;
            }
            List<String> f = List.of(stat.substring(close + 2).split(" "));
            long server = postmaster;
            long pid = Long.parseLong(proc.getFileName().toString());
            if (server != 0 && pid != server && Long.parseLong(f.get(1)) != server) {
                return 0; // another server's process
            }
            // fields after the name: state is [0], the parent [1]; utime [11], stime [12], cutime [13], cstime [14]. The
            // children's times are those of backends that ended (the postmaster reaps them): their CPU counts too.
            return (Long.parseLong(f.get(11)) + Long.parseLong(f.get(12)) + Long.parseLong(f.get(13))
                    + Long.parseLong(f.get(14))) / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return 0; // the process ended while we read it
        }
    }
}
