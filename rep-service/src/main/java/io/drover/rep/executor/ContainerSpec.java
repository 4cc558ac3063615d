package io.drover.rep.executor;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.DesiredLrpDefinition;

/** What to run: one incarnation ({@code instanceGuid}) of one instance slot, with its desired LRP's definition. */
public record ContainerSpec(ActualLrpKey key, String instanceGuid, DesiredLrpDefinition definition) {
}
