package io.drover.rep.executor.process;

import io.drover.rep.executor.ContainerState;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polls a container's health (SPEC 8.3): every 0.5 s while starting, until healthy (then RUNNING) or past its start
 * timeout, if it has one (then killed, "failed to start within N s"); every 30 s once running, where one failed round
 * kills it with the check's reason. One scheduled task per container at a time, on the shared scheduler.
 */
final class HealthPoller {

    private static final Logger log = LoggerFactory.getLogger(HealthPoller.class);

    private final ProcessRuntime runtime;

    private final HealthProbe probe;

    private final TreeWatcher watcher;

    HealthPoller(ProcessRuntime runtime, HealthProbe probe, TreeWatcher watcher) {
        this.runtime = runtime;
        this.probe = probe;
        this.watcher = watcher;
    }

    /** Starts polling a new or adopted container: fast while it starts, slow once it runs. */
    void watch(ProcessContainer container) {
        schedule(container, container.isStarting() ? runtime.properties().startingPollInterval()
                : runtime.properties().runningPollInterval());
    }

    private void schedule(ProcessContainer container, Duration delay) {
        container.replaceHealthPoll(
                runtime.scheduler().schedule(() -> poll(container), delay.toMillis(), TimeUnit.MILLISECONDS));
    }

    private void poll(ProcessContainer container) {
        if (!container.isActive()) {
            return;
        }
        probe.probe(container)
                .whenCompleteAsync((failure, error) -> judge(container,
                        error != null ? Optional.of("health check failed: " + error.getMessage()) : failure),
                        runtime.scheduler());
    }

    private void judge(ProcessContainer container, Optional<String> failure) {
        if (!container.isActive()) {
            return;
        }
        boolean starting = container.isStarting();
        if (failure.isEmpty()) {
            if (starting && container.markRunning()) {
                log.info("container-healthy instance_guid={}", container.spec().instanceGuid());
            }
            schedule(container, runtime.properties().runningPollInterval());
        } else if (!starting) {
            watcher.terminate(container, ContainerState.CRASHED, failure.get(), Duration.ZERO);
        } else if (startTimeoutPassed(container)) {
            watcher.terminate(container, ContainerState.CRASHED,
                    "failed to start within " + startTimeout(container).toSeconds() + " s", Duration.ZERO);
        } else {
            container.healthCheckFailed(failure.get());
            schedule(container, runtime.properties().startingPollInterval());
        }
    }

    /** SPEC 5.2: a start timeout of 0 means none; such a container polls until it is healthy or stopped. */
    private boolean startTimeoutPassed(ProcessContainer container) {
        Duration timeout = startTimeout(container);
        return !timeout.isZero() && !runtime.clock().instant().isBefore(container.instance().startedAt().plus(timeout));
    }

    private static Duration startTimeout(ProcessContainer container) {
        return Duration.ofSeconds(Math.max(0, container.spec().definition().startTimeout()));
    }
}
