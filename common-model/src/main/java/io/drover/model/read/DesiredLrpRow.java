package io.drover.model.read;

import io.drover.model.json.Json;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.AutoscalingPolicy;
import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.EnvVar;
import io.drover.model.lrp.ModificationTag;
import io.drover.model.lrp.RunAction;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import tools.jackson.core.type.TypeReference;

/**
 * A desired LRP row read straight from its columns. The structured fields are the JSON the lifecycle stored
 * ({@link Json}: snake_case, nulls written): {@code actionJson} an action ({@code {"run": {...}}}), {@code monitorJson} a
 * run action or null, {@code checksJson} a check definition or null, {@code envJson}, {@code portsJson} and
 * {@code placementTagsJson} arrays, {@code routesJson} the routes object or null. A reader can copy them into a response
 * as they are, or parse them with {@link #definition()}. {@code definitionVersion} is the version of the definition
 * (SPEC 14); {@code autoscalingJson} the autoscaling policy (SPEC 17) or null.
 */
public record DesiredLrpRow(String processGuid, String domain, String rootfs, int instances, String actionJson,
        String monitorJson, String checksJson, int startTimeout, String envJson, String portsJson, int memoryMb,
        int diskMb, int maxPids, int cpuWeight, String placementTagsJson, String routesJson, String annotation,
        String logGuid, String metricsGuid, UUID epoch, long version, Instant createdAt, Instant updatedAt,
        int definitionVersion, String autoscalingJson) {

    private static final TypeReference<List<EnvVar>> ENV = new TypeReference<>() {
    };
    private static final TypeReference<List<Integer>> INTS = new TypeReference<>() {
    };
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };

    /** What clients see of the row's version: its epoch and version. */
    public ModificationTag modificationTag() {
        return new ModificationTag(epoch, version);
    }

    /** The definition, its JSON columns parsed. */
    public DesiredLrpDefinition definition() {
        return new DesiredLrpDefinition(processGuid, domain, rootfs, instances, Json.read(actionJson, Action.class),
                monitorJson == null ? null : Json.read(monitorJson, RunAction.class),
                checksJson == null ? null : Json.read(checksJson, CheckDefinition.class), startTimeout,
                Json.read(envJson, ENV), Json.read(portsJson, INTS), memoryMb, diskMb, maxPids, cpuWeight,
                Json.read(placementTagsJson, STRINGS), routesJson, annotation, logGuid, metricsGuid,
                autoscalingJson == null ? null : Json.read(autoscalingJson, AutoscalingPolicy.class));
    }
}
