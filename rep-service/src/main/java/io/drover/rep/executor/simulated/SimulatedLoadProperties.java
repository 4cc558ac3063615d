package io.drover.rep.executor.simulated;

import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The simulated load at start ({@code drover.rep.simulated.load.*}), see {@link SimulatedLoad}.
 *
 * @param cpu process_guid prefix to the total CPU demand of each such LRP, percent of one core
 *     ({@code drover.rep.simulated.load.cpu[web-]=300})
 */
@ConfigurationProperties("drover.rep.simulated.load")
public record SimulatedLoadProperties(Map<String, Double> cpu) {

    public SimulatedLoadProperties {
        cpu = cpu == null ? Map.of() : Map.copyOf(cpu);
    }
}
