package io.drover.rep.executor.simulated;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How simulated containers behave ({@code drover.rep.simulated.*}): a container turns RUNNING after
 * {@code startLatency} plus up to {@code startJitter}; with {@code crashProbability} it crashes at a random moment within
 * {@code crashWindow} of starting; a stop takes {@code stopLatency}. All cells of a JVM share {@code schedulerThreads}.
 */
@ConfigurationProperties("drover.rep.simulated")
public record SimulatedProperties(@DefaultValue("50ms") Duration startLatency,
        @DefaultValue("50ms") Duration startJitter, @DefaultValue("0") double crashProbability,
        @DefaultValue("60s") Duration crashWindow, @DefaultValue("0ms") Duration stopLatency,
        @DefaultValue("2") int schedulerThreads, @DefaultValue("61000") int firstHostPort,
        @DefaultValue("65535") int lastHostPort, @DefaultValue("0") long seed) {

    public SimulatedProperties {
        if (crashProbability < 0 || crashProbability > 1) {
            throw new IllegalArgumentException("drover.rep.simulated.crash-probability must be within 0..1");
        }
        if (firstHostPort > lastHostPort) {
            throw new IllegalArgumentException("drover.rep.simulated host port range is empty");
        }
    }

    /** Instant containers that never crash: what most tests want. */
    public static SimulatedProperties instant() {
        return new SimulatedProperties(Duration.ZERO, Duration.ZERO, 0, Duration.ofMinutes(1), Duration.ZERO, 1,
                61000, 65535, 1);
    }
}
