package io.drover.rep.cell;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The rep's settings ({@code drover.rep.*}). With {@code simulatedCells = N > 0} the process hosts N cells named
 * {@code <cellId>-<n>}, spread round-robin over {@code zones}; otherwise it is the one cell {@code cellId} in
 * {@code zone}. Capacity figures left at 0 are derived from the machine.
 */
@ConfigurationProperties("drover.rep")
public record RepProperties(String cellId, @DefaultValue("z1") String zone, List<String> zones,
        @DefaultValue("127.0.0.1") String address, @DefaultValue Capacity capacity,
        @DefaultValue("preloaded:host") List<String> rootfsProviders, @DefaultValue PlacementTags placementTags,
        @DefaultValue("process") String executor, @DefaultValue("0") int simulatedCells,
        @DefaultValue Timing timing, @DefaultValue Admin admin, @DefaultValue("evacuate") ShutdownMode shutdown,
        @DefaultValue("0") int workerThreads, @DefaultValue("500") int batchSize) {

    public RepProperties {
        zones = zones == null || zones.isEmpty() ? List.of(zone) : List.copyOf(zones);
        rootfsProviders = List.copyOf(rootfsProviders);
        if (simulatedCells > 0 && !"simulated".equals(executor)) {
            throw new IllegalArgumentException(
                    "drover.rep.simulated-cells needs drover.rep.executor=simulated (real processes of many cells "
                            + "would share one machine's ports and memory)");
        }
    }

    /** What each cell offers; 0 means "derive from the machine" (total memory, free disk, 256 containers). */
    public record Capacity(@DefaultValue("0") int memoryMb, @DefaultValue("0") int diskMb,
            @DefaultValue("0") int containers) {
    }

    /** Placement tags: work must ask for every required tag and may ask for optional ones. */
    public record PlacementTags(@DefaultValue List<String> required, @DefaultValue List<String> optional) {

        public PlacementTags {
            required = required == null ? List.of() : List.copyOf(required);
            optional = optional == null ? List.of() : List.copyOf(optional);
        }
    }

    /**
     * The rep's clocks (SPEC 8.1, 8.4, 8.5); {@code deregistrationDelay}: how long a RUNNING instance asked to stop keeps
     * running before its SIGTERM, while the routers take it out of their tables (SPEC 16, docs/router.md).
     */
    public record Timing(@DefaultValue("5s") Duration heartbeatInterval, @DefaultValue("15s") Duration presenceTtl,
            @DefaultValue("30s") Duration syncInterval, @DefaultValue("10s") Duration evacuatingSyncInterval,
            @DefaultValue("10s") Duration stopGrace, @DefaultValue("10m") Duration evacuationDeadline,
            @DefaultValue("2s") Duration deregistrationDelay) {
    }

    /** The loopback-only admin endpoint ({@code POST /evacuate}); port 0 picks a free one. */
    public record Admin(@DefaultValue("true") boolean enabled, @DefaultValue("1800") int port,
            @DefaultValue("true") boolean exitAfterEvacuation) {
    }

    /**
     * What the rep does when its JVM is asked to stop (SIGTERM): EVACUATE drains every cell first (SPEC 8.5) and removes
     * its presence; KEEP leaves containers and presence as they are, for a quick restart that re-adopts them; STOP stops
     * every container (grace, then kill) and leaves nothing running, as the local cluster does on Ctrl-C.
     */
    public enum ShutdownMode {
        EVACUATE, KEEP, STOP
    }
}
