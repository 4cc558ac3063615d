package io.drover.rep.executor.process;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.NetInfo.PortMapping;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.process.cgroup.InstanceCgroup;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What one container is and owns on the machine for its whole life, apart from its lifecycle (which
 * {@link ProcessContainer} keeps): what it runs, on which cell, its ports and start; its directory; its journal (the log
 * the API serves); its cgroup in cgroup mode; and the meter its usage is computed with.
 *
 * @param cgroup empty in sampling mode, and for a container adopted from a rep that sampled
 */
record PlacedInstance(ContainerSpec spec, String cellId, NetInfo netInfo, Instant startedAt, InstanceDir dir,
        InstanceJournal journal, Optional<InstanceCgroup> cgroup, UsageMeter meter) {

    PlacedInstance(ContainerSpec spec, String cellId, NetInfo netInfo, Instant startedAt, InstanceDir dir,
            InstanceJournal journal, Optional<InstanceCgroup> cgroup) {
        this(spec, cellId, netInfo, startedAt, dir, journal, cgroup, new UsageMeter());
    }

    /** A container a previous rep left, as its pid file describes it; its tree is found by its cgroup if it has one. */
    static PlacedInstance adopted(PidFile file, InstanceDir dir, InstanceJournal journal,
            Optional<InstanceCgroup> cgroup) {
        ContainerSpec spec = new ContainerSpec(ActualLrpKey.of(file.processGuid(), file.index()),
                file.instanceGuid(), file.definition(), file.runs());
        return new PlacedInstance(spec, file.cellId(), new NetInfo(file.address(), file.ports()),
                Instant.ofEpochMilli(file.startedAtMillis()), dir, journal, cgroup);
    }

    /** What the sandbox its processes run in knows of it. */
    SandboxedInstance sandboxed() {
        return new SandboxedInstance(spec.instanceGuid(), InstanceDir.safeName(cellId), dir.root(), dir.app(),
                dir.stdout(), dir.stderr(), spec.definition(), netInfo, cgroup);
    }

    List<Integer> hostPorts() {
        return netInfo.ports().stream().map(PortMapping::hostPort).toList();
    }
}
