package io.drover.rep.usage;

import io.drover.model.usage.InstanceUsage;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

/**
 * The reporter's meters: {@code drover.rep.usage.round} (a timer: one per sampling round),
 * {@code drover.rep.usage.writes} (statements sent: at most one per round), and gauges per instance
 * ({@code drover_rep_instance_cpu_percent}, {@code _memory_bytes}, {@code _memory_limit_bytes}, {@code _disk_bytes},
 * {@code _uptime_seconds}) labelled {@code cell}, {@code process_guid} and {@code index}: never the instance guid, so a
 * restarted instance keeps its series. At most {@code limit} instances are exported, which bounds the rep's series to
 * 5 x limit; the ones already exported keep their place while they live, and
 * {@code drover_rep_instance_gauges_dropped} counts the instances left out.
 */
final class UsageMeters {

    private final Clock clock;

    private final int limit;

    private final MultiGauge cpu;

    private final MultiGauge memory;

    private final MultiGauge memoryLimit;

    private final MultiGauge disk;

    private final MultiGauge uptime;

    private final AtomicInteger dropped = new AtomicInteger();

    private final Timer rounds;

    private final Counter writes;

    private Map<Slot, Tags> exported = Map.of();

    private Map<Slot, InstanceUsage> current = Map.of();

    /** The steady instances exported, by instance guid: they stay until they end. */
    private final Map<String, InstanceUsage> steady = new LinkedHashMap<>();

    UsageMeters(MeterRegistry registry, Clock clock, int limit) {
        this.clock = clock;
        this.limit = limit;
        this.cpu = MultiGauge.builder("drover.rep.instance.cpu").baseUnit("percent")
                .description("CPU over the last sampling interval, percent of one core").register(registry);
        this.memory = MultiGauge.builder("drover.rep.instance.memory").baseUnit("bytes")
                .description("memory held (cgroup usage less inactive page cache, or tree RSS)").register(registry);
        this.memoryLimit = MultiGauge.builder("drover.rep.instance.memory.limit").baseUnit("bytes")
                .description("memory limit (memory_mb), 0 for none").register(registry);
        this.disk = MultiGauge.builder("drover.rep.instance.disk").baseUnit("bytes")
                .description("size of the instance directory").register(registry);
        this.uptime = MultiGauge.builder("drover.rep.instance.uptime").baseUnit("seconds")
                .description("time since the instance started").register(registry);
        registry.gauge("drover.rep.instance.gauges.dropped", dropped);
        this.rounds = Timer.builder("drover.rep.usage.round").description("one sampling round of every cell")
                .register(registry);
        this.writes = Counter.builder("drover.rep.usage.writes").description("usage statements sent, one per round "
                + "at most (none when nothing changed)").register(registry);
    }

    void round(Duration took) {
        rounds.record(took);
    }

    void wrote() {
        writes.increment();
    }

    /** A round of measured instances only (every one the cells hold). */
    void update(List<InstanceUsage> current) {
        update(UsageSample.measured(current));
    }

    /**
     * Exports the instances of this round: those already exported first, then others in the order given (measured,
     * then steady ones that started), up to the limit. Linear in the measured instances and in the steady ones that
     * started or ended, never in the steady ones that run on: a simulated rep holds a hundred thousand.
     */
    void update(UsageSample sample) {
        sample.ended().forEach(steady::remove);
        Map<Slot, InstanceUsage> chosen = new LinkedHashMap<>();
        if (!exported.isEmpty()) {
            for (InstanceUsage u : sample.measured()) {
                Slot slot = Slot.of(u);
                if (exported.containsKey(slot)) {
                    chosen.put(slot, u);
                }
            }
        }
        steady.values().forEach(u -> chosen.putIfAbsent(Slot.of(u), u));
        for (InstanceUsage u : sample.measured()) {
            if (chosen.size() >= limit) {
                break;
            }
            chosen.putIfAbsent(Slot.of(u), u);
        }
        for (List<InstanceUsage> steadyOnes : List.of(sample.started(), sample.steadyAll())) {
            for (InstanceUsage u : steadyOnes) {
                if (chosen.size() >= limit) {
                    break;
                }
                if (chosen.putIfAbsent(Slot.of(u), u) == null) {
                    steady.put(u.instanceGuid(), u);
                }
            }
        }
        Map<Slot, Tags> tags = new LinkedHashMap<>();
        chosen.keySet().forEach(slot -> tags.put(slot, exported.getOrDefault(slot, slot.tags())));
        exported = tags;
        dropped.set((int) Math.max(0, sample.instances() - chosen.size()));
        this.current = chosen;
        cpu.register(rows(InstanceUsage::cpuPercent), true);
        memory.register(rows(InstanceUsage::memoryBytes), true);
        memoryLimit.register(rows(InstanceUsage::memoryLimitBytes), true);
        disk.register(rows(InstanceUsage::diskBytes), true);
        uptime.register(rows(u -> Duration.between(u.startedAt(), clock.instant()).toSeconds()), true);
    }

    private List<MultiGauge.Row<?>> rows(ToDoubleFunction<InstanceUsage> figure) {
        List<MultiGauge.Row<?>> rows = new ArrayList<>(current.size());
        current.forEach((slot, usage) -> rows.add(MultiGauge.Row.of(exported.get(slot), usage, figure)));
        return rows;
    }

    /** What a series is labelled by: the instance slot on its cell, never the incarnation. */
    private record Slot(String cell, String processGuid, int index) {

        static Slot of(InstanceUsage usage) {
            return new Slot(usage.cellId(), usage.processGuid(), usage.index());
        }

        Tags tags() {
            return Tags.of("cell", cell, "process_guid", processGuid, "index", Integer.toString(index));
        }
    }
}
