package io.drover.rep.executor.process;

import io.drover.model.lrp.RunAction;
import io.drover.rep.executor.ContainerState;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts an admitted container on the shared scheduler: its directory, its cgroup (in cgroup mode) with the
 * definition's limits, then the run action; the leader is attached (or killed, when a stop came first) and health
 * polling decides when it runs. The leader's exit is a crash, unless it daemonised beside a monitor.
 */
final class ContainerLaunch {

    private static final Logger log = LoggerFactory.getLogger(ContainerLaunch.class);

    private final ProcessRuntime runtime;

    private final TreeWatcher watcher;

    private final HealthPoller health;

    private final BiFunction<ProcessContainer, RunAction, Map<String, String>> environment;

    ContainerLaunch(ProcessRuntime runtime, TreeWatcher watcher, HealthPoller health,
            BiFunction<ProcessContainer, RunAction, Map<String, String>> environment) {
        this.runtime = runtime;
        this.watcher = watcher;
        this.health = health;
        this.environment = environment;
    }

    void launch(ProcessContainer container, RunAction action) {
        if (!container.isActive()) {
            container.settleWithoutProcess();
            return;
        }
        PlacedInstance instance = container.instance();
        Sandbox.Launched launched;
        try {
            runtime.sandbox().prepare(instance.sandboxed());
            launched = runtime.sandbox().launch(instance.sandboxed(), action, environment.apply(container, action),
                    Sandbox.Role.MAIN);
        } catch (IOException | RuntimeException e) {
            container.settleWithoutProcess();
            watcher.terminate(container, ContainerState.CRASHED, "failed to start: " + e.getMessage(), Duration.ZERO);
            return;
        }
        Process process = launched.process();
        ProcessIdentity leader = ProcTable.stat(launched.leaderPid()).map(ProcessIdentity::of)
                .orElse(new ProcessIdentity(launched.leaderPid(), -1));
        long session = runtime.launcher().usesSessions() ? process.pid() : 0;
        if (!container.attach(process, leader, session)) {
            Signals.kill(ProcTable.read().members(new TreeRoots(leader, session, Set.of())));
            return;
        }
        log.info("container-launched instance_guid={} pid={} session={}", instance.spec().instanceGuid(),
                process.pid(), session);
        process.onExit().thenAcceptAsync(exited -> leaderExited(container, exited.exitValue()), runtime.scheduler());
        watchUntilRunning(container);
    }

    /** A started (or adopted) container with health checks runs once they pass; without any, it runs now. */
    void watchUntilRunning(ProcessContainer container) {
        if (HealthProbe.hasChecks(container.spec().definition())) {
            health.watch(container);
        } else {
            container.markRunning();
        }
    }

    /** Any exit is a crash, except a main process exiting 0 beside a monitor: it daemonised. */
    private void leaderExited(ProcessContainer container, int exitValue) {
        if (!container.isActive()) {
            return;
        }
        if (exitValue == 0 && container.spec().definition().monitor() != null) {
            log.info("container-daemonised instance_guid={}", container.spec().instanceGuid());
            container.markDaemonised();
            return;
        }
        watcher.terminate(container, ContainerState.CRASHED,
                TreeWatcher.outOfMemory(container) ? TreeWatcher.OUT_OF_MEMORY : ExitStatus.describe(exitValue),
                Duration.ZERO);
    }
}
