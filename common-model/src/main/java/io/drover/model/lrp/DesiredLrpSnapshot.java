package io.drover.model.lrp;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.time.Instant;

/**
 * An immutable view of a {@link DesiredLrp}: its definition and its bookkeeping (events, responses), with the version
 * of the definition (SPEC 14).
 */
public record DesiredLrpSnapshot(@JsonUnwrapped DesiredLrpDefinition definition, ModificationTag modificationTag,
        Instant createdAt, Instant updatedAt, int definitionVersion) {

    /** A snapshot of a desired LRP at its first definition version. */
    public DesiredLrpSnapshot(DesiredLrpDefinition definition, ModificationTag modificationTag, Instant createdAt,
            Instant updatedAt) {
        this(definition, modificationTag, createdAt, updatedAt, 1);
    }
}
