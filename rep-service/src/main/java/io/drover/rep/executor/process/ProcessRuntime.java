package io.drover.rep.executor.process;

import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;

/** What every process executor of a rep shares: settings, clock, the scheduler threads, the host ports, the launcher. */
record ProcessRuntime(ProcessExecutorProperties properties, Clock clock, ScheduledExecutorService scheduler,
        HostPorts ports, ProcessLauncher launcher) {
}
