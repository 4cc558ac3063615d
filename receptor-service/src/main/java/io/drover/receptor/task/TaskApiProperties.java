package io.drover.receptor.task;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The task API's limits ({@code drover.receptor.tasks.*}).
 *
 * @param maxUnfinishedPerDomain a domain holds at most this many unfinished (PENDING or RUNNING) tasks; a submission
 *     beyond is a 429 TooManyTasks
 * @param admissionHeadroom within this many of the limit, every new task counts the domain's unfinished tasks first;
 *     further away, a count up to {@code admissionCountTtl} old (plus what this receptor admitted since) is trusted
 * @param admissionCountTtl how long a domain's count is trusted far from the limit (and a full domain stays full)
 * @param retryAfter the {@code Retry-After} of a 429
 * @param callbackAllowedHosts where completion callbacks may go ({@link CallbackTargets}): {@code *} (any host but
 *     loopback, link-local and the like), host names, {@code *.suffix}, addresses and CIDR ranges, with an optional
 *     {@code :port}; never the cluster's own services
 * @param clusterEndpointsRefresh how often the cells' log endpoints (which callbacks may not reach) are read again
 */
@ConfigurationProperties("drover.receptor.tasks")
public record TaskApiProperties(@DefaultValue("100000") long maxUnfinishedPerDomain,
        @DefaultValue("10000") long admissionHeadroom, @DefaultValue("1s") Duration admissionCountTtl,
        @DefaultValue("10s") Duration retryAfter, @DefaultValue("*") List<String> callbackAllowedHosts,
        @DefaultValue("30s") Duration clusterEndpointsRefresh) {
}
