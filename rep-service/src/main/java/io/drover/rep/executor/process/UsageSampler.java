package io.drover.rep.executor.process;

import io.drover.rep.executor.ContainerUsage;
import io.drover.rep.executor.process.cgroup.CgroupSample;
import io.drover.rep.executor.process.cgroup.InstanceCgroup;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Measures what live containers use: from their cgroup's accounting when they have one (three small files: memory
 * usage, memory.stat, CPU time), else from the tree's last 1 s /proc sample, which the watcher takes anyway.
 */
final class UsageSampler {

    private final Clock clock;

    UsageSampler(Clock clock) {
        this.clock = clock;
    }

    List<ContainerUsage> measure(Collection<ProcessContainer> containers) {
        Instant now = clock.instant();
        return containers.stream().filter(ProcessContainer::isActive).map(c -> measure(c, now)).toList();
    }

    private ContainerUsage measure(ProcessContainer container, Instant now) {
        UsageMeter meter = container.meter();
        long memory;
        long cpuNanos;
        Optional<CgroupSample> sample = container.cgroup().map(InstanceCgroup::sample);
        if (sample.isPresent()) {
            memory = sample.get().memoryBytes();
            cpuNanos = sample.get().cpuNanos();
        } else {
            memory = meter.treeMemoryBytes();
            cpuNanos = meter.treeCpuNanos();
        }
        int memoryMb = container.spec().definition().memoryMb();
        return new ContainerUsage(container.spec().key(), container.spec().instanceGuid(),
                meter.cpuPercent(cpuNanos, now, container.startedAt()), memory, Math.max(0, memoryMb) * 1024L * 1024L,
                meter.diskBytes(container.dir().root(), now), container.startedAt());
    }
}
