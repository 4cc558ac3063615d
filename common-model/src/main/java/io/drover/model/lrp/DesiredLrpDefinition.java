package io.drover.model.lrp;

import java.util.List;

/**
 * Everything a user says when desiring an LRP (SPEC 5.2), already validated by the receptor. {@code routes} is an opaque
 * JSON object kept as text.
 */
public record DesiredLrpDefinition(String processGuid, String domain, String rootfs, int instances, Action action,
        RunAction monitor, CheckDefinition checkDefinition, int startTimeout, List<EnvVar> env, List<Integer> ports,
        int memoryMb, int diskMb, int maxPids, int cpuWeight, List<String> placementTags, String routes,
        String annotation, String logGuid, String metricsGuid) {

    public DesiredLrpDefinition {
        env = env == null ? List.of() : List.copyOf(env);
        ports = ports == null ? List.of() : List.copyOf(ports);
        placementTags = placementTags == null ? List.of() : List.copyOf(placementTags);
    }
}
