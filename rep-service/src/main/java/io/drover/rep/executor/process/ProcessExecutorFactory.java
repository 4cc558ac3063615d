package io.drover.rep.executor.process;

import io.drover.model.cell.CellIsolation;
import io.drover.model.cell.Resources;
import io.drover.rep.executor.ExecutorFactory;
import io.drover.rep.executor.process.cgroup.Cgroups;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the process executors of a rep's cells. They share one small scheduler (no thread per container) and one
 * host port allocator, so two cells of one rep process never hand out the same port. Closing the factory stops the
 * threads; the processes keep running for the next rep to adopt.
 */
public final class ProcessExecutorFactory implements ExecutorFactory, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ProcessExecutorFactory.class);

    private final ProcessRuntime runtime;

    private final ScheduledThreadPoolExecutor scheduler;

    public ProcessExecutorFactory(ProcessExecutorProperties properties, Clock clock) {
        this(properties, clock, cgroups -> {
            throw new SandboxProvider.Unavailable("drover.rep.executor=process");
        });
    }

    /**
     * Executors whose instances run in the provider's sandbox (containers, {@code isolation=CONTAINERS}) where it can
     * be had; where it cannot (no cgroups, no runtime, not root), on the host as the process executor's, with the
     * reason in one WARN line.
     */
    public ProcessExecutorFactory(ProcessExecutorProperties properties, Clock clock, SandboxProvider sandboxes) {
        this.scheduler = new ScheduledThreadPoolExecutor(properties.threads(), daemonThreads());
        scheduler.setRemoveOnCancelPolicy(true);
        ProcessLauncher launcher = new ProcessLauncher();
        Isolation detected = Isolation.choose(properties.isolation(), properties.cgroupRoot());
        Isolation isolation = detected;
        Sandbox sandbox = new HostSandbox(launcher);
        try {
            sandbox = sandboxes.sandbox(detected.cgroups());
            isolation = new Isolation(CellIsolation.CONTAINERS, detected.cgroups(), "");
        } catch (SandboxProvider.Unavailable e) {
            if (!e.getMessage().equals("drover.rep.executor=process")) {
                log.warn("container-executor-unavailable reason=\"{}\" (instances run as host processes, isolation={}; "
                        + "docs/isolation.md)", e.getMessage(), detected.mode());
            }
        }
        this.runtime = new ProcessRuntime(properties, clock, scheduler, new HostPorts(properties.portRange()),
                launcher, isolation, sandbox);
        log.info("process-executor work_dir={} host_ports={} sessions={} nofile_limits={} proc={} isolation={}",
                properties.workDir(), properties.hostPortRange(), launcher.usesSessions(), launcher.limitsNofile(),
                ProcTable.PROC_AVAILABLE, isolation.mode());
        detected.cgroups().ifPresentOrElse(
                cgroups -> log.info("process-executor-cgroups version={} base={}", cgroups.version(), cgroups.bases()),
                () -> log.warn("process-executor-no-cgroups reason=\"{}\" (memory_mb and max_pids are only sampled "
                        + "every {}, cpu_weight is a nice level; docs/process-executor.md)", detected.reason(),
                        properties.sampleInterval()));
    }

    @Override
    public CellIsolation isolation() {
        return runtime.isolation().mode();
    }

    @Override
    public ProcessExecutor create(String cellId, String address, Resources capacity) {
        return new ProcessExecutor(cellId, address, capacity, runtime);
    }

    /** The cgroup hierarchy its executors use; empty in sampling mode. */
    Optional<Cgroups> cgroups() {
        return runtime.isolation().cgroups();
    }

    /** Stops the threads; the processes keep running, and so the cgroups holding them stay. */
    @Override
    public void close() {
        scheduler.shutdownNow();
        runtime.sandbox().close();
        runtime.isolation().cgroups().ifPresent(Cgroups::removeIfEmpty);
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "drover-process-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
