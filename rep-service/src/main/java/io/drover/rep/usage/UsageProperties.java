package io.drover.rep.usage;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of per-instance usage sampling ({@code drover.rep.usage.*}).
 *
 * @param enabled sample and report at all
 * @param interval how often every container of the rep is measured and the figures written (one statement)
 * @param fullInterval how often a round rewrites every row of the rep's cells and sweeps rows of cells long gone,
 *     instead of only what changed (the first round always does)
 * @param gaugeLimit at most this many instances of the rep get Prometheus gauges (the label cardinality bound)
 */
@ConfigurationProperties("drover.rep.usage")
public record UsageProperties(@DefaultValue("true") boolean enabled, @DefaultValue("5s") Duration interval,
        @DefaultValue("1h") Duration fullInterval, @DefaultValue("256") int gaugeLimit) {

    public UsageProperties {
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("drover.rep.usage.interval must be positive: " + interval);
        }
        if (gaugeLimit < 0) {
            throw new IllegalArgumentException("drover.rep.usage.gauge-limit must not be negative: " + gaugeLimit);
        }
    }
}
