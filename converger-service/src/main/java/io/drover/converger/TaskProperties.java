package io.drover.converger;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The converger's task settings ({@code drover.converger.tasks.*}): its task rules and the completion callbacks it
 * sends.
 *
 * @param staleAfter a PENDING task neither started nor changed for longer is auctioned again
 * @param placementRetries at most this many more auctions per task, then it fails with its placement error
 * @param maxRetriesPerPass at most this many re-auctions per pass; the rest wait for the next one
 * @param pendingTimeout a task still PENDING this long after its submission fails
 * @param resolvingTimeout a task RESOLVING longer than this goes back to COMPLETED (its resolver gave up or died)
 * @param completedTtl a completed task nobody resolved is deleted this long after it completed
 * @param callbackInterval how often the callback worker looks for completed tasks with a callback URL
 * @param callbackTimeout how long one callback request may take
 * @param callbackRetryFor how long a callback answered 503/504 or unreachable is retried, with back-off
 * @param callbackConcurrency callbacks in flight at once
 */
@ConfigurationProperties("drover.converger.tasks")
public record TaskProperties(@DefaultValue("30s") Duration staleAfter, @DefaultValue("3") int placementRetries,
        @DefaultValue("500") int maxRetriesPerPass, @DefaultValue("30m") Duration pendingTimeout,
        @DefaultValue("2m") Duration resolvingTimeout, @DefaultValue("2m") Duration completedTtl,
        @DefaultValue("1s") Duration callbackInterval, @DefaultValue("10s") Duration callbackTimeout,
        @DefaultValue("30s") Duration callbackRetryFor, @DefaultValue("8") int callbackConcurrency) {
}
