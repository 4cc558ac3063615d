package io.drover.rep.executor;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.DefinitionId;
import io.drover.model.lrp.NetInfo;

/**
 * A container as the executor sees it. {@code netInfo} is known from the moment ports are allocated;
 * {@code reason} explains a CRASHED container ("exited with status 3", "killed by signal 9", "out of memory",
 * "failed to start within 10 s", a failed check); {@code runs} is the definition it runs (null when unknown).
 */
public record Container(ActualLrpKey key, String instanceGuid, String domain, ContainerState state, NetInfo netInfo,
        String reason, DefinitionId runs) {

    public Container(ActualLrpKey key, String instanceGuid, String domain, ContainerState state, NetInfo netInfo,
            String reason) {
        this(key, instanceGuid, domain, state, netInfo, reason, null);
    }
}
