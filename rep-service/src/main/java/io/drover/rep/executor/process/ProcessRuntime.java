package io.drover.rep.executor.process;

import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What all process executors of a rep share: settings, clock, scheduler threads, host ports, the launcher, and how
 * containers are isolated.
 */
record ProcessRuntime(ProcessExecutorProperties properties, Clock clock, ScheduledExecutorService scheduler,
        HostPorts ports, ProcessLauncher launcher, Isolation isolation) {
}
