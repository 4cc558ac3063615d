package io.drover.receptor.desiredlrp;

import io.drover.model.json.Json;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.AutoscalingPolicy;
import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpSnapshot;
import io.drover.model.lrp.EnvVar;
import io.drover.model.lrp.ModificationTag;
import java.time.Instant;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A desired LRP as the API shows it (SPEC 5.2): the create fields, {@code routes} as the JSON object it was given,
 * {@code monitor} in the same {@code {"run": ...}} shape as {@code action}, and the bookkeeping fields. The same shape
 * is streamed in events. {@code definition_version} is the version of the definition (SPEC 14), changed by
 * deployments; {@code autoscaling} the autoscaling policy (SPEC 17) or null. (A single GET adds the autoscaler's
 * {@code autoscaling_status} to an autoscaled LRP: see {@code DesiredLrpJson}.)
 */
public record DesiredLrpResponse(String processGuid, String domain, String rootfs, int instances, Action action,
        Action monitor, CheckDefinition checkDefinition, int startTimeout, List<EnvVar> env, List<Integer> ports,
        int memoryMb, int diskMb, int maxPids, int cpuWeight, List<String> placementTags, JsonNode routes,
        String annotation, String logGuid, String metricsGuid, AutoscalingPolicy autoscaling,
        ModificationTag modificationTag, Instant createdAt, Instant updatedAt, int definitionVersion) {

    public static DesiredLrpResponse of(DesiredLrpSnapshot snapshot) {
        DesiredLrpDefinition d = snapshot.definition();
        return new DesiredLrpResponse(d.processGuid(), d.domain(), d.rootfs(), d.instances(), d.action(),
                d.monitor() == null ? null : new Action(d.monitor()), d.checkDefinition(), d.startTimeout(), d.env(),
                d.ports(), d.memoryMb(), d.diskMb(), d.maxPids(), d.cpuWeight(), d.placementTags(),
                d.routes() == null ? null : Json.tree(d.routes()), d.annotation(), d.logGuid(), d.metricsGuid(),
                d.autoscaling(), snapshot.modificationTag(), snapshot.createdAt(), snapshot.updatedAt(), snapshot.definitionVersion());
    }

    /** The API shape of a desired LRP carried by a lifecycle event (the model's snapshot JSON). */
    public static DesiredLrpResponse fromEvent(JsonNode snapshot) {
        DesiredLrpDefinition definition = Json.MAPPER.treeToValue(snapshot, DesiredLrpDefinition.class);
        ModificationTag tag = Json.MAPPER.treeToValue(snapshot.get("modification_tag"), ModificationTag.class);
        JsonNode version = snapshot.get("definition_version");
        return of(new DesiredLrpSnapshot(definition, tag, instant(snapshot.get("created_at")),
                instant(snapshot.get("updated_at")), version == null || version.isNull() ? 1 : version.asInt()));
    }

    private static Instant instant(JsonNode node) {
        return node == null || node.isNull() ? null : Json.MAPPER.treeToValue(node, Instant.class);
    }
}
