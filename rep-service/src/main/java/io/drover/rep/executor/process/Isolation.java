package io.drover.rep.executor.process;

import io.drover.model.cell.CellIsolation;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.rep.executor.process.ProcessExecutorProperties.IsolationSetting;
import io.drover.rep.executor.process.cgroup.CgroupDetection;
import io.drover.rep.executor.process.cgroup.CgroupLimits;
import io.drover.rep.executor.process.cgroup.Cgroups;
import io.drover.rep.executor.process.cgroup.InstanceCgroup;
import java.io.IOException;
import java.util.Optional;

/**
 * How this rep's process executors isolate their containers, decided once at start: a cgroup per instance (the kernel
 * enforces memory, CPU weight and pids) or, where cgroups cannot be used, sampling the process table.
 *
 * @param mode what the cells register
 * @param cgroups the hierarchy in cgroup mode
 * @param reason why not cgroups, in sampling mode
 */
record Isolation(CellIsolation mode, Optional<Cgroups> cgroups, String reason) {

    static Isolation choose(IsolationSetting setting, String cgroupRoot) {
        if (setting == IsolationSetting.SAMPLING) {
            return sampling("drover.rep.process.isolation=sampling");
        }
        CgroupDetection detected = CgroupDetection.detect(cgroupRoot);
        if (detected.cgroups().isPresent()) {
            return new Isolation(detected.cgroups().get().version(), detected.cgroups(), "");
        }
        if (setting == IsolationSetting.CGROUPS) {
            throw new IllegalStateException(
                    "drover.rep.process.isolation=cgroups, but cgroups cannot be used: " + detected.reason());
        }
        return sampling(detected.reason());
    }

    /** A new instance's cgroup in cgroup mode (to be created before its launch), empty in sampling mode. */
    Optional<InstanceCgroup> cgroupFor(String cellName, String instanceGuid) {
        return cgroups.map(c -> c.instance(cellName, InstanceDir.safeName(instanceGuid)));
    }

    /** Creates an instance's cgroup with the limits of its definition; nothing in sampling mode. */
    static void create(Optional<InstanceCgroup> cgroup, DesiredLrpDefinition definition) throws IOException {
        if (cgroup.isEmpty()) {
            return;
        }
        try {
            cgroup.get().create(CgroupLimits.of(definition.memoryMb(), definition.cpuWeight(), definition.maxPids()));
        } catch (IOException e) {
            throw new IOException("cannot create cgroup: " + e.getMessage(), e);
        }
    }

    static Isolation sampling(String reason) {
        return new Isolation(CellIsolation.SAMPLING, Optional.empty(), reason);
    }
}
