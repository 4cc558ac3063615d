package io.drover.model.task;

import io.drover.model.json.Json;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.EnvVar;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Everything a client says when submitting a task (SPEC 13), already validated by the receptor. Two submissions are the
 * same task when their definitions are equal: that is what makes a resubmission idempotent. {@code resultFile} is a
 * path in the task's working directory; {@code completionCallbackUrl} is POSTed the task once it completed.
 */
public record TaskDefinition(String taskGuid, String domain, String rootfs, Action action, List<EnvVar> env,
        int memoryMb, int diskMb, int cpuWeight, int maxPids, List<String> placementTags, String resultFile,
        String completionCallbackUrl, String annotation, String logGuid, String metricsGuid) {

    public TaskDefinition {
        env = env == null ? List.of() : List.copyOf(env);
        placementTags = placementTags == null ? List.of() : List.copyOf(placementTags);
    }

    /**
     * The SHA-256 (hex) of this definition's JSON: equal definitions have equal digests, so a deleted task's tombstone
     * tells an identical resubmission from a different one without keeping the body.
     */
    public String digest() {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(Json.write(this).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
