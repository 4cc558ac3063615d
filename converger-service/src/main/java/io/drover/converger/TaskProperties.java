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
 * @param completedTtl a completed task nobody resolved is deleted this long after it completed, or after its callback
 *     was given up; never while its callback is still due
 * @param callbackInterval how often the callback worker looks for due callbacks (it also looks as soon as an attempt
 *     ends)
 * @param callbackTimeout how long one attempt may take (connecting, sending, the answer's status)
 * @param callbackRetryFor a callback answered 429/503/504 or unreachable is retried with back-off this long after its
 *     task completed, at most
 * @param callbackConcurrency attempts in flight at once
 * @param callbackMaxAttempts attempts per callback at most, the first included
 * @param callbackFirstBackoff the pause before the second attempt; it doubles with every attempt
 * @param callbackMaxBackoff the longest pause between two attempts
 */
@ConfigurationProperties("drover.converger.tasks")
public record TaskProperties(@DefaultValue("30s") Duration staleAfter, @DefaultValue("3") int placementRetries,
        @DefaultValue("500") int maxRetriesPerPass, @DefaultValue("30m") Duration pendingTimeout,
        @DefaultValue("2m") Duration resolvingTimeout, @DefaultValue("2m") Duration completedTtl,
        @DefaultValue("1s") Duration callbackInterval, @DefaultValue("10s") Duration callbackTimeout,
        @DefaultValue("15m") Duration callbackRetryFor, @DefaultValue("32") int callbackConcurrency,
        @DefaultValue("10") int callbackMaxAttempts, @DefaultValue("1s") Duration callbackFirstBackoff,
        @DefaultValue("1m") Duration callbackMaxBackoff) {
}
