package io.drover.model.lrp;

import java.util.List;

/**
 * The part of a desired LRP's definition that a deployment changes (SPEC 14): what runs, how it is checked, what it
 * needs and where it may run. One version of it is one definition version; the rest of the definition (process_guid,
 * domain, rootfs, instances, routes, annotation, autoscaling) is the LRP's, whatever the version.
 */
public record Deployable(Action action, RunAction monitor, CheckDefinition checkDefinition, int startTimeout,
        List<EnvVar> env, List<Integer> ports, int memoryMb, int diskMb, int maxPids, int cpuWeight,
        List<String> placementTags) {

    public Deployable {
        env = env == null ? List.of() : List.copyOf(env);
        ports = ports == null ? List.of() : List.copyOf(ports);
        placementTags = placementTags == null ? List.of() : List.copyOf(placementTags);
    }

    /** The deployable part of {@code d}. */
    public static Deployable of(DesiredLrpDefinition d) {
        return new Deployable(d.action(), d.monitor(), d.checkDefinition(), d.startTimeout(), d.env(), d.ports(),
                d.memoryMb(), d.diskMb(), d.maxPids(), d.cpuWeight(), d.placementTags());
    }

    /** {@code d} with this deployable part. */
    public DesiredLrpDefinition applyTo(DesiredLrpDefinition d) {
        return new DesiredLrpDefinition(d.processGuid(), d.domain(), d.rootfs(), d.instances(), action, monitor,
                checkDefinition, startTimeout, env, ports, memoryMb, diskMb, maxPids, cpuWeight, placementTags,
                d.routes(), d.annotation(), d.logGuid(), d.metricsGuid(), d.autoscaling());
    }
}
