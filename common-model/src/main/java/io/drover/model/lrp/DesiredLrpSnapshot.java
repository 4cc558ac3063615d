package io.drover.model.lrp;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

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

    /**
     * What an update (SPEC 5.3: instances, routes, annotation; null leaves a field as it is) makes of this LRP at the
     * next version, or empty when it would change nothing.
     */
    public Optional<DesiredLrpSnapshot> updatedBy(DesiredLrpUpdate update, Instant now) {
        DesiredLrpDefinition d = definition;
        int instances = update.instances() == null ? d.instances() : update.instances();
        String routes = update.routes() == null ? d.routes() : update.routes();
        String annotation = update.annotation() == null ? d.annotation() : update.annotation();
        if (instances == d.instances() && Objects.equals(routes, d.routes())
                && Objects.equals(annotation, d.annotation())) {
            return Optional.empty();
        }
        DesiredLrpDefinition changed = new DesiredLrpDefinition(d.processGuid(), d.domain(), d.rootfs(), instances,
                d.action(), d.monitor(), d.checkDefinition(), d.startTimeout(), d.env(), d.ports(), d.memoryMb(),
                d.diskMb(), d.maxPids(), d.cpuWeight(), d.placementTags(), routes, annotation, d.logGuid(),
                d.metricsGuid());
        return Optional.of(new DesiredLrpSnapshot(changed,
                new ModificationTag(modificationTag.epoch(), modificationTag.index() + 1), createdAt, now,
                definitionVersion));
    }
}
