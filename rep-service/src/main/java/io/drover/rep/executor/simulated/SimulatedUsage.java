package io.drover.rep.executor.simulated;

import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerUsage;
import java.time.Instant;

/**
 * Plausible usage for a simulated container: a share of its memory and disk (or of a nominal size when it asks for
 * none) and a few percent of a core, fixed for its lifetime by its guid, or its share of a simulated load. Pure.
 */
final class SimulatedUsage {

    private static final long MIB = 1024L * 1024L;

    private SimulatedUsage() {
    }

    static ContainerUsage of(ContainerSpec spec, Instant startedAt) {
        return of(spec, startedAt, null);
    }

    /** The same figures, but {@code cpuPercent} for the CPU when it is not null (a simulated load's share). */
    static ContainerUsage of(ContainerSpec spec, Instant startedAt, Double cpuPercent) {
        DesiredLrpDefinition definition = spec.definition();
        int hash = spec.instanceGuid().hashCode();
        double memoryShare = 0.2 + 0.6 * fraction(hash);
        double cpu = Math.round((0.2 + 4.8 * fraction(hash >>> 8)) * 10) / 10.0;
        double diskShare = 0.05 + 0.25 * fraction(hash >>> 16);
        long memoryBytes = (long) ((definition.memoryMb() > 0 ? definition.memoryMb() : 128) * MIB * memoryShare);
        long diskBytes = (long) ((definition.diskMb() > 0 ? definition.diskMb() : 64) * MIB * diskShare);
        return new ContainerUsage(spec.key(), spec.instanceGuid(), cpuPercent == null ? cpu : cpuPercent, memoryBytes,
                Math.max(0, definition.memoryMb()) * MIB, diskBytes, startedAt);
    }

    private static double fraction(int bits) {
        return (bits & 0xff) / 255.0;
    }
}
