package io.drover.router.proxy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Per-route metrics: {@code drover.router.requests{route, status}} (a timer with a latency histogram; status is the
 * class, {@code 2xx} ... {@code 5xx}, or {@code cancelled}) and {@code drover.router.upstream.errors{route, kind}}
 * ({@code connect}, {@code reset}, {@code timeout}, {@code other}). A request for an unknown host counts under route
 * {@code none}: hostnames clients make up never become series. Meters are looked up once and kept.
 */
final class RequestMetrics {

    static final String NO_ROUTE = "none";
    private static final Duration[] BUCKETS = { Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
        Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5) };

    private final MeterRegistry meters;
    private final ConcurrentHashMap<String, Timer> timers = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Counter> errors = new ConcurrentHashMap<>();

    RequestMetrics(MeterRegistry meters) {
        this.meters = meters;
    }

    void request(String route, String status, long nanos) {
        timers.computeIfAbsent(route + ' ' + status, k -> Timer.builder("drover.router.requests")
                .description("requests by route and status class").tag("route", route).tag("status", status)
                .serviceLevelObjectives(BUCKETS).register(meters)).record(nanos, TimeUnit.NANOSECONDS);
    }

    void upstreamError(String route, Failure failure) {
        errors.computeIfAbsent(route + ' ' + failure.label(), k -> Counter.builder("drover.router.upstream.errors")
                .description("failures on the way to an instance").tag("route", route).tag("kind", failure.label())
                .register(meters)).increment();
    }
}
