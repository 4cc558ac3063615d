package io.drover.model.lrp;

import io.drover.model.jdbc.StorableText;

/**
 * A cell reports that the container of an incarnation it owns exited, and why. The reason is made of what the workload
 * did (its exit, a health check's answer, a download's error), so it is made {@link StorableText storable} here, where
 * every crash enters the lifecycle: a NUL or a lone surrogate becomes U+FFFD.
 */
public record CrashReport(InstanceOwner owner, String reason) {

    public CrashReport {
        reason = StorableText.of(reason);
    }
}
