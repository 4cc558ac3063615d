package io.drover.rep.executor.process;

import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What all process executors of a rep share: settings, clock, scheduler threads, host ports, the launcher, how
 * containers are isolated, and the sandbox their processes run in (the host, or an OCI runtime's containers).
 */
record ProcessRuntime(ProcessExecutorProperties properties, Clock clock, ScheduledExecutorService scheduler,
        HostPorts ports, ProcessLauncher launcher, Isolation isolation, Sandbox sandbox) {

    ProcessRuntime(ProcessExecutorProperties properties, Clock clock, ScheduledExecutorService scheduler,
            HostPorts ports, ProcessLauncher launcher, Isolation isolation) {
        this(properties, clock, scheduler, ports, launcher, isolation, new HostSandbox(launcher));
    }
}
