package io.drover.rep.usage;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.usage.InstanceUsage;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Per-instance gauges: labelled by slot not incarnation, at most {@code limit} instances, the rest counted. */
class UsageMetersTest {

    static final Instant NOW = Instant.parse("2026-01-01T01:00:00Z");

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final UsageMeters gauges = new UsageMeters(registry, Clock.fixed(NOW, ZoneOffset.UTC), 2);

    @Test
    void eachInstanceGetsItsFiguresLabelledByCellProcessGuidAndIndex() {
        gauges.update(List.of(usage("web", 0, NOW.minusSeconds(90))));

        Gauge cpu = registry.find("drover.rep.instance.cpu").tags("cell", "cell-a", "process_guid", "web", "index", "0")
                .gauge();
        assertThat(cpu.value()).isEqualTo(12.5);
        assertThat(registry.find("drover.rep.instance.memory").gauge().value()).isEqualTo(1000);
        assertThat(registry.find("drover.rep.instance.memory.limit").gauge().value()).isEqualTo(2000);
        assertThat(registry.find("drover.rep.instance.disk").gauge().value()).isEqualTo(3000);
        assertThat(registry.find("drover.rep.instance.uptime").gauge().value()).isEqualTo(90);
        assertThat(cpu.getId().getTags()).extracting(t -> t.getKey()).doesNotContain("instance_guid");
    }

    @Test
    void beyondTheLimitInstancesAreCountedNotExportedAndTheExportedKeepTheirPlace() {
        gauges.update(List.of(usage("a", 0, NOW.minusSeconds(30)), usage("b", 0, NOW.minusSeconds(20))));
        gauges.update(List.of(usage("c", 0, NOW.minusSeconds(300)), usage("a", 0, NOW.minusSeconds(30)),
                usage("b", 0, NOW.minusSeconds(20))));

        assertThat(exported()).containsExactlyInAnyOrder("a", "b");
        assertThat(registry.find("drover.rep.instance.gauges.dropped").gauge().value()).isEqualTo(1);

        gauges.update(List.of(usage("c", 0, NOW.minusSeconds(300)), usage("b", 0, NOW.minusSeconds(20))));

        assertThat(exported()).as("a is gone: its series too, and c takes the free place").containsExactlyInAnyOrder(
                "b", "c");
        assertThat(registry.find("drover.rep.instance.gauges.dropped").gauge().value()).isZero();
    }

    private List<String> exported() {
        return registry.find("drover.rep.instance.cpu").gauges().stream().map(g -> g.getId().getTag("process_guid"))
                .toList();
    }

    private static InstanceUsage usage(String processGuid, int index, Instant startedAt) {
        return new InstanceUsage(processGuid, index, "ig-" + processGuid, "cell-a", 12.5, 1000, 2000, 3000,
                startedAt);
    }
}
