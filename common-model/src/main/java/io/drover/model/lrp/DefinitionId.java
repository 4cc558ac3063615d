package io.drover.model.lrp;

import java.util.UUID;

/**
 * Which definition an incarnation runs: the desired LRP's epoch (its life: a desired LRP deleted and desired again under
 * the same process_guid has a new one, and starts at definition version 1 again) and the definition version within
 * that life (SPEC 14). A cell keeps it with each container, so that neither a claim nor a start records an instance as
 * running a definition it does not run.
 */
public record DefinitionId(UUID lrpEpoch, int version) {
}
