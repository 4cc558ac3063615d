package io.drover.rep.executor.simulated;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How simulated containers behave ({@code drover.rep.simulated.*}): a container turns RUNNING after
 * {@code startLatency} plus up to {@code startJitter}; with {@code crashProbability} it crashes at a random moment within
 * {@code crashWindow} of starting; a stop takes {@code stopLatency}. All cells of a JVM share {@code schedulerThreads}.
 * A task's container runs its action abstractly ({@link SimulatedActions}), each {@code run} taking {@code taskStep}.
 */
@ConfigurationProperties("drover.rep.simulated")
public record SimulatedProperties(@DefaultValue("50ms") Duration startLatency,
        @DefaultValue("50ms") Duration startJitter, @DefaultValue("0") double crashProbability,
        @DefaultValue("60s") Duration crashWindow, @DefaultValue("0ms") Duration stopLatency,
        @DefaultValue("2") int schedulerThreads, @DefaultValue("61000") int firstHostPort,
        @DefaultValue("65535") int lastHostPort, @DefaultValue("0") long seed,
        @DefaultValue("100ms") Duration taskStep) {

    @ConstructorBinding
    public SimulatedProperties {
        if (crashProbability < 0 || crashProbability > 1) {
            throw new IllegalArgumentException("drover.rep.simulated.crash-probability must be within 0..1");
        }
        if (firstHostPort > lastHostPort) {
            throw new IllegalArgumentException("drover.rep.simulated host port range is empty");
        }
    }

    /** Settings with the default task step (100 ms per simulated {@code run} of a task's action). */
    public SimulatedProperties(Duration startLatency, Duration startJitter, double crashProbability,
            Duration crashWindow, Duration stopLatency, int schedulerThreads, int firstHostPort, int lastHostPort,
            long seed) {
        this(startLatency, startJitter, crashProbability, crashWindow, stopLatency, schedulerThreads, firstHostPort,
                lastHostPort, seed, Duration.ofMillis(100));
    }

    /** Instant containers that never crash and tasks that end at once: what most tests want. */
    public static SimulatedProperties instant() {
        return new SimulatedProperties(Duration.ZERO, Duration.ZERO, 0, Duration.ofMinutes(1), Duration.ZERO, 1,
                61000, 65535, 1, Duration.ZERO);
    }
}
