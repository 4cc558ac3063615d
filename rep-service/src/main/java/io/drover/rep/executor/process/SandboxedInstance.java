package io.drover.rep.executor.process;

import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.NetInfo;
import io.drover.rep.executor.process.cgroup.InstanceCgroup;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a {@link Sandbox} knows of one instance: its ids, its directory on the cell ({@code root}, holding {@code app}
 * and the output files the process writes to), its definition, ports, and its cgroup (empty in sampling mode).
 */
public record SandboxedInstance(String instanceGuid, String cellName, Path root, Path app, Path stdout, Path stderr,
        DesiredLrpDefinition definition, NetInfo netInfo, Optional<InstanceCgroup> cgroup) {

    /** Safe as a directory or runtime id: letters, digits, '.', '_' and '-'. */
    public String safeGuid() {
        return InstanceDir.safeName(instanceGuid);
    }
}
