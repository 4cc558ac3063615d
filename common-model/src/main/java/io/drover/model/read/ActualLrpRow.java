package io.drover.model.read;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.CrashRestartPolicy;
import io.drover.model.lrp.ModificationTag;
import java.time.Instant;
import java.util.UUID;

/**
 * An actual LRP row as the API shows it (SPEC 5.3), read straight from its columns. {@code portsJson} is the stored
 * JSON array of port mappings ({@code [{"container_port", "host_port"}]}), or null; {@code sinceMillis} is
 * {@code since} in epoch milliseconds (rounded down, as {@link Instant#toEpochMilli()} does); {@code evacuating} for
 * the twin a draining cell serves from while the slot's replacement starts elsewhere (SPEC 8.5), or a deployment
 * keeps serving while the slot's new incarnation proves healthy (SPEC 14); {@code definitionVersion} is the definition
 * version the incarnation runs.
 */
public record ActualLrpRow(String processGuid, int index, String domain, ActualLrpState state, String instanceGuid,
        String cellId, String address, String portsJson, int crashCount, String crashReason, String placementError,
        long sinceMillis, UUID epoch, long version, boolean evacuating, int definitionVersion) {

    /** The instance slot. */
    public ActualLrpKey key() {
        return ActualLrpKey.of(processGuid, index);
    }

    /** What clients see of the row's version: its epoch and version. */
    public ModificationTag modificationTag() {
        return new ModificationTag(epoch, version);
    }

    /** When a CRASHED instance is restarted by the policy, in epoch milliseconds; null otherwise or never. */
    public Long nextRestartAtMillis(CrashRestartPolicy policy) {
        if (state != ActualLrpState.CRASHED) {
            return null;
        }
        return policy.nextRestartAt(crashCount, Instant.ofEpochMilli(sinceMillis)).map(Instant::toEpochMilli)
                .orElse(null);
    }
}
