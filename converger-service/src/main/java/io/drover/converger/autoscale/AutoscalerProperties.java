package io.drover.converger.autoscale;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The autoscaler's settings ({@code drover.autoscaler.*}).
 *
 * @param enabled run it at all (on the converger's leader)
 * @param interval how often the leader decides every autoscaled LRP (the HPA's sync period is 15 s); the reps sample
 *     every 5 s ({@code drover.rep.usage.interval})
 * @param warmup how long an instance must have been RUNNING before its figures count: its first samples are of its
 *     start (the HPA waits 30 s after readiness)
 */
@ConfigurationProperties("drover.autoscaler")
public record AutoscalerProperties(@DefaultValue("true") boolean enabled, @DefaultValue("15s") Duration interval,
        @DefaultValue("30s") Duration warmup) {
}
