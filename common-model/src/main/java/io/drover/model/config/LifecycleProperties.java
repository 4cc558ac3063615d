package io.drover.model.config;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Lifecycle settings ({@code drover.lifecycle.*}): the crash restart policy of SPEC 3.4 and the optimistic-lock retry
 * bound.
 */
@ConfigurationProperties("drover.lifecycle")
public record LifecycleProperties(@DefaultValue("2") int immediateRestarts,
        @DefaultValue("30s") Duration crashInitialDelay, @DefaultValue("16m") Duration crashMaxDelay,
        @DefaultValue("200") int maxCrashes, @DefaultValue("5m") Duration crashResetAfter,
        @DefaultValue("8") int optimisticLockAttempts) {
}
