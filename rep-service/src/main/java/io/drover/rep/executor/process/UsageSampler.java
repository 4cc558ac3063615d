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
        PlacedInstance instance = container.instance();
        UsageMeter meter = instance.meter();
        long memory;
        long cpuNanos;
        Optional<CgroupSample> sample = instance.cgroup().map(InstanceCgroup::sample);
        if (sample.isPresent()) {
            memory = sample.get().memoryBytes();
            cpuNanos = sample.get().cpuNanos();
        } else {
            memory = meter.treeMemoryBytes();
            cpuNanos = meter.treeCpuNanos();
        }
        int memoryMb = instance.spec().definition().memoryMb();
        return new ContainerUsage(instance.spec().key(), instance.spec().instanceGuid(),
                meter.cpuPercent(cpuNanos, now, instance.startedAt()), memory, Math.max(0, memoryMb) * 1024L * 1024L,
                meter.diskBytes(instance.dir().root(), now), instance.startedAt());
    }
}
