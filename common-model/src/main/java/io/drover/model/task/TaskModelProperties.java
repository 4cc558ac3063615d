package io.drover.model.task;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The task settings every service shares ({@code drover.tasks.*}).
 *
 * @param tombstoneTtl how long a deleted task's guid stays known (with its body's digest): a submission of that guid
 *     within this window answers from the tombstone and never runs the task again; the converger's garbage collection
 *     prunes older tombstones
 */
@ConfigurationProperties("drover.tasks")
public record TaskModelProperties(@DefaultValue("24h") Duration tombstoneTtl) {
}
