package io.drover.model.lrp;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.time.Instant;

/** An immutable view of a {@link DesiredLrp}: its definition and its bookkeeping (events, responses). */
public record DesiredLrpSnapshot(@JsonUnwrapped DesiredLrpDefinition definition, ModificationTag modificationTag, Instant createdAt,
        Instant updatedAt) {
}
