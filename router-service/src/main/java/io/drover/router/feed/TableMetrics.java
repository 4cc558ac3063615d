package io.drover.router.feed;

import io.drover.router.table.RouteTable;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/**
 * The table's metrics: {@code drover.router.routes} and {@code drover.router.instances} (gauges),
 * {@code drover.router.table.changes} (changes applied), {@code drover.router.table.rebuilds{reason}} and
 * {@code drover.router.table.lag}: from the write of a change's row to the table that shows it, per batch (the
 * oldest change of the batch), the "route change visible" of benchmark P8.
 */
@Component
class TableMetrics {

    private final MeterRegistry meters;
    private final AtomicInteger routes = new AtomicInteger();
    private final AtomicInteger instances = new AtomicInteger();
    private final Counter changes;
    private final Timer lag;

    TableMetrics(MeterRegistry meters) {
        this.meters = meters;
        Gauge.builder("drover.router.routes", routes, AtomicInteger::get).description("hostnames routed")
                .register(meters);
        Gauge.builder("drover.router.instances", instances, AtomicInteger::get)
                .description("instances the routes send requests to").register(meters);
        this.changes = Counter.builder("drover.router.table.changes").register(meters);
        this.lag = Timer.builder("drover.router.table.lag").description("row written to table published")
                .publishPercentiles(0.5, 0.99).serviceLevelObjectives(Duration.ofMillis(50), Duration.ofMillis(100),
                        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5))
                .register(meters);
    }

    void table(RouteTable table) {
        routes.set(table.routes().size());
        instances.set(table.backendCount());
    }

    void applied(int count, long lagMillis) {
        changes.increment(count);
        lag.record(Duration.ofMillis(lagMillis));
    }

    void rebuilt(String reason) {
        meters.counter("drover.router.table.rebuilds", "reason", reason).increment();
    }
}
