package io.drover.rep.executor.simulated;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Load that simulated containers report, so that the autoscaler (SPEC 17) can be driven without real processes: a
 * total CPU demand per LRP, in percent of one core, shared evenly by the LRP's RUNNING containers of this JVM's
 * simulated cells. An LRP of 300 % on three containers reports 100 % each, on six 50 %: scaling out spreads the load,
 * as it would for a web server behind a router. The demand is set by process_guid prefix (the longest matching prefix
 * wins), from {@code drover.rep.simulated.load.cpu[prefix]=percent} at start and by {@link #setCpu} while running (a
 * benchmark's load step). An LRP no prefix matches reports the executor's usual few percent.
 */
public final class SimulatedLoad {

    private final Map<String, Double> cpuByPrefix = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();

    public SimulatedLoad(Map<String, Double> cpuByPrefix) {
        this.cpuByPrefix.putAll(cpuByPrefix);
    }

    /** Sets the total CPU demand of every LRP whose process_guid starts with {@code prefix}. */
    public void setCpu(String prefix, double totalPercent) {
        cpuByPrefix.put(prefix, totalPercent);
    }

    /**
     * No demand is set for any LRP: every simulated container then reports fixed figures for its life. Once one is set
     * (it can only be changed, never taken away), figures move with the load and with the LRP's containers.
     */
    boolean isEmpty() {
        return cpuByPrefix.isEmpty();
    }

    /** The CPU one RUNNING container of {@code processGuid} reports, or null when no demand is set for it. */
    Double cpuPercent(String processGuid) {
        String best = null;
        for (String prefix : cpuByPrefix.keySet()) {
            if (processGuid.startsWith(prefix) && (best == null || prefix.length() > best.length())) {
                best = prefix;
            }
        }
        if (best == null) {
            return null;
        }
        AtomicInteger count = running.get(processGuid);
        int n = count == null ? 1 : Math.max(1, count.get());
        return Math.round(cpuByPrefix.get(best) / n * 10) / 10.0;
    }

    void started(String processGuid) {
        running.computeIfAbsent(processGuid, g -> new AtomicInteger()).incrementAndGet();
    }

    void ended(String processGuid) {
        running.computeIfPresent(processGuid, (g, n) -> n.decrementAndGet() <= 0 ? null : n);
    }
}
