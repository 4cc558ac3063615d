package io.drover.model.lrp;

import java.util.List;

/**
 * Everything a user says when desiring an LRP (SPEC 5.2), already validated by the receptor. {@code routes} is an opaque
 * JSON object kept as text; {@code autoscaling} the LRP's autoscaling policy (SPEC 17), null for none.
 */
public record DesiredLrpDefinition(String processGuid, String domain, String rootfs, int instances, Action action,
        RunAction monitor, CheckDefinition checkDefinition, int startTimeout, List<EnvVar> env, List<Integer> ports,
        int memoryMb, int diskMb, int maxPids, int cpuWeight, List<String> placementTags, String routes,
        String annotation, String logGuid, String metricsGuid, AutoscalingPolicy autoscaling) {

    public DesiredLrpDefinition {
        env = env == null ? List.of() : List.copyOf(env);
        ports = ports == null ? List.of() : List.copyOf(ports);
        placementTags = placementTags == null ? List.of() : List.copyOf(placementTags);
    }

    /** A definition without an autoscaling policy. */
    public DesiredLrpDefinition(String processGuid, String domain, String rootfs, int instances, Action action,
            RunAction monitor, CheckDefinition checkDefinition, int startTimeout, List<EnvVar> env,
            List<Integer> ports, int memoryMb, int diskMb, int maxPids, int cpuWeight, List<String> placementTags,
            String routes, String annotation, String logGuid, String metricsGuid) {
        this(processGuid, domain, rootfs, instances, action, monitor, checkDefinition, startTimeout, env, ports,
                memoryMb, diskMb, maxPids, cpuWeight, placementTags, routes, annotation, logGuid, metricsGuid, null);
    }

    /** This definition with what an update may change (SPEC 5.3, 17): instances, routes, annotation, the policy. */
    DesiredLrpDefinition updated(int newInstances, String newRoutes, String newAnnotation,
            AutoscalingPolicy newAutoscaling) {
        return new DesiredLrpDefinition(processGuid, domain, rootfs, newInstances, action, monitor, checkDefinition,
                startTimeout, env, ports, memoryMb, diskMb, maxPids, cpuWeight, placementTags, newRoutes,
                newAnnotation, logGuid, metricsGuid, newAutoscaling);
    }
}
