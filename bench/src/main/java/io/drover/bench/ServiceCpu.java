package io.drover.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The CPU one service has used so far, in seconds: in the one-JVM cluster the CPU clocks of its request threads (the
 * receptor's Tomcat threads are {@code http-nio-*}), in a cluster of separate JVMs its whole process from
 * {@code /proc} (request threads, GC, JIT and all).
 */
interface ServiceCpu {

    double seconds();

    /** What the measure covers, for the report. */
    String covers();

    static ServiceCpu threadsNamed(String prefix) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return new ServiceCpu() {
            @Override
            public double seconds() {
                long nanos = 0;
                for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
                    if (info != null && info.getThreadName().startsWith(prefix)) {
                        nanos += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
                    }
                }
                return nanos / 1e9;
            }

            @Override
            public String covers() {
                return "its " + prefix + "* threads";
            }
        };
    }

    static ServiceCpu process(long pid) {
        return new ServiceCpu() {
            @Override
            public double seconds() {
                try {
                    String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
                    List<String> f = List.of(stat.substring(stat.lastIndexOf(')') + 2).split(" "));
                    // after the name: state is [0]; utime [11], stime [12] in clock ticks (USER_HZ = 100)
                    return (Long.parseLong(f.get(11)) + Long.parseLong(f.get(12))) / 100.0;
                } catch (IOException | RuntimeException e) {
                    return Double.NaN;
                }
            }

            @Override
            public String covers() {
                return "its whole JVM (pid " + pid + ")";
            }
        };
    }
}
