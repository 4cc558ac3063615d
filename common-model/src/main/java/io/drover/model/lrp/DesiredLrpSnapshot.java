package io.drover.model.lrp;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A desired LRP: what a user wants (its definition, SPEC 5.2) and its bookkeeping, the modification tag that is its
 * optimistic lock ({@code epoch} of its creation, {@code index} its row's {@code version}) and the version of its
 * definition (SPEC 14). Immutable: its verbs ({@link #create}, {@link #updatedBy}, {@link #redefinedBy}) return what
 * the LRP becomes at its next version, and {@code DesiredLrpLifecycle} writes that with a compare-and-swap on the
 * version it followed. An update changes only {@code instances}, {@code routes} and {@code annotation} (as in Diego)
 * and the autoscaling policy; what runs changes by a deployment, which gives the definition a new
 * {@code definitionVersion}.
 */
public record DesiredLrpSnapshot(@JsonUnwrapped DesiredLrpDefinition definition, ModificationTag modificationTag,
        Instant createdAt, Instant updatedAt, int definitionVersion) {

    /** A snapshot of a desired LRP at its first definition version. */
    public DesiredLrpSnapshot(DesiredLrpDefinition definition, ModificationTag modificationTag, Instant createdAt,
            Instant updatedAt) {
        this(definition, modificationTag, createdAt, updatedAt, 1);
    }

    /** A new desired LRP: a new incarnation ({@code epoch}) at version 0, running definition version 1. */
    public static DesiredLrpSnapshot create(DesiredLrpDefinition definition, UUID epoch, Instant now) {
        AutoscalingPolicy policy = definition.autoscaling();
        if (policy != null && !policy.admits(definition.instances())) {
            throw new AutoscaledInstancesException(definition.processGuid(), definition.instances(), policy);
        }
        return new DesiredLrpSnapshot(definition, new ModificationTag(epoch, 0), now, now, 1);
    }

    /**
     * What an update (SPEC 5.3: instances, routes, annotation, and the autoscaling policy of SPEC 17; null leaves a
     * field as it is) makes of this LRP at the next version, or empty when it would change nothing. While a policy is
     * set (the one the update leaves or sets), the autoscaler owns {@code instances} within its range: an update's
     * count outside it is refused, and a new policy brings the current count into its range.
     *
     * @throws AutoscaledInstancesException when the update asks for a count outside the policy's range
     */
    public Optional<DesiredLrpSnapshot> updatedBy(DesiredLrpUpdate update, Instant now) {
        DesiredLrpDefinition d = definition;
        AutoscalingPolicy policy = update.autoscaling() == null ? d.autoscaling() : update.autoscaling().orElse(null);
        int instances = update.instances() == null ? d.instances() : update.instances();
        if (policy != null && !policy.admits(instances)) {
            if (update.instances() != null) {
                throw new AutoscaledInstancesException(d.processGuid(), instances, policy);
            }
            instances = policy.clamp(instances);
        }
        String routes = update.routes() == null ? d.routes() : update.routes();
        String annotation = update.annotation() == null ? d.annotation() : update.annotation();
        if (instances == d.instances() && Objects.equals(routes, d.routes())
                && Objects.equals(annotation, d.annotation()) && Objects.equals(policy, d.autoscaling())) {
            return Optional.empty();
        }
        return Optional.of(next(d.updated(instances, routes, annotation, policy), now, definitionVersion));
    }

    /**
     * What a deployment makes of this LRP (SPEC 14): {@code deployable} is its definition under {@code version}, at
     * the next version of the row; new instances run it, and the deployer replaces the others. Empty when {@code
     * version} is the current definition version already.
     */
    public Optional<DesiredLrpSnapshot> redefinedBy(Deployable deployable, int version, Instant now) {
        if (version == definitionVersion) {
            return Optional.empty();
        }
        return Optional.of(next(deployable.applyTo(definition), now, version));
    }

    private DesiredLrpSnapshot next(DesiredLrpDefinition changed, Instant now, int nextDefinitionVersion) {
        ModificationTag next = new ModificationTag(modificationTag.epoch(), modificationTag.index() + 1);
        return new DesiredLrpSnapshot(changed, next, createdAt, now, nextDefinitionVersion);
    }
}
