package io.drover.rep.executor.process;

import io.drover.model.cell.Resources;
import io.drover.rep.executor.ExecutorFactory;
import java.time.Clock;
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
        this.scheduler = new ScheduledThreadPoolExecutor(properties.threads(), daemonThreads());
        scheduler.setRemoveOnCancelPolicy(true);
        ProcessLauncher launcher = new ProcessLauncher();
        this.runtime = new ProcessRuntime(properties, clock, scheduler, new HostPorts(properties.portRange()),
                launcher);
        log.info("process-executor work_dir={} host_ports={} sessions={} nofile_limits={} proc={}",
                properties.workDir(), properties.hostPortRange(), launcher.usesSessions(), launcher.limitsNofile(),
                ProcTable.PROC_AVAILABLE);
    }

    @Override
    public ProcessExecutor create(String cellId, String address, Resources capacity) {
        return new ProcessExecutor(cellId, address, capacity, runtime);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
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
