package io.drover.rep.executor;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * An executor whose containers' logs outlive them: {@link #forget} first copies the container's last lines into the
 * cell's {@link KeptLogs}, and {@link #log} serves them once the container is gone. Everything else is the executor's.
 */
final class LogKeepingExecutor implements Executor {

    private final Executor executor;
    private final String cellId;
    private final KeptLogs kept;

    LogKeepingExecutor(Executor executor, String cellId, KeptLogs kept) {
        this.executor = executor;
        this.cellId = cellId;
        this.kept = kept;
    }

    @Override
    public void forget(String instanceGuid) {
        executor.log(instanceGuid).ifPresent(log -> kept.keep(cellId, instanceGuid, log));
        executor.forget(instanceGuid);
    }

    @Override
    public Optional<InstanceLog> log(String instanceGuid) {
        Optional<InstanceLog> live = executor.log(instanceGuid);
        return live.isPresent() ? live : kept.find(cellId, instanceGuid);
    }

    @Override
    public void run(ContainerSpec spec) {
        executor.run(spec);
    }

    @Override
    public void stop(String instanceGuid, Duration grace) {
        executor.stop(instanceGuid, grace);
    }

    @Override
    public List<Container> containers() {
        return executor.containers();
    }

    @Override
    public Optional<Container> container(String instanceGuid) {
        return executor.container(instanceGuid);
    }

    @Override
    public void addListener(ContainerListener listener) {
        executor.addListener(listener);
    }

    @Override
    public List<Container> adopt() {
        return executor.adopt();
    }

    @Override
    public Optional<String> readFile(String instanceGuid, String path, int maxBytes) {
        return executor.readFile(instanceGuid, path, maxBytes);
    }

    @Override
    public List<ContainerUsage> usage() {
        return executor.usage();
    }

    @Override
    public boolean steadyUsage() {
        return executor.steadyUsage();
    }

    @Override
    public UsageChanges usageChanges() {
        return executor.usageChanges();
    }

    @Override
    public void close() {
        executor.close();
    }
}
