package io.drover.rep.executor;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.DefinitionId;
import io.drover.model.lrp.DesiredLrpDefinition;

/**
 * What to run: one incarnation ({@code instanceGuid}) of one instance slot, with its desired LRP's definition and which
 * definition that is ({@code runs}: the LRP's life and definition version; null for a container adopted from a rep that
 * did not keep it).
 */
public record ContainerSpec(ActualLrpKey key, String instanceGuid, DesiredLrpDefinition definition, DefinitionId runs) {

    public ContainerSpec(ActualLrpKey key, String instanceGuid, DesiredLrpDefinition definition) {
        this(key, instanceGuid, definition, null);
    }
}
