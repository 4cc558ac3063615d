package io.drover.router.proxy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Per-route metrics: {@code drover.router.requests{route, status}} (a timer with a latency histogram; status is the
 * class, {@code 2xx} ... {@code 5xx}, or {@code cancelled}) and {@code drover.router.upstream.errors{route, kind}}
 * ({@code connect}, {@code reset}, {@code timeout}, {@code other}). A request for an unknown host counts under route
 * {@code none}: hostnames clients make up never become series. Meters are registered once and kept, a route's timers
 * by status class in an array: a request looks its route up by the hostname the table holds, no key is built.
 */
final class RequestMetrics {

    static final String NO_ROUTE = "none";
    private static final Duration[] BUCKETS = { Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
        Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5) };

    /** A status class's place in a route's timers: 0 for a cancelled request, else the status's first digit. */
    static final int CANCELLED = 0;
    private static final String[] STATUS = { "cancelled", "1xx", "2xx", "3xx", "4xx", "5xx", "6xx", "7xx", "8xx",
        "9xx" };

    private final MeterRegistry meters;
    private final ConcurrentHashMap<String, AtomicReferenceArray<Timer>> timers = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Counter> errors = new ConcurrentHashMap<>();

    RequestMetrics(MeterRegistry meters) {
        this.meters = meters;
    }

    /** A request of {@code route} ended with {@code status} ({@link #CANCELLED}, or the status's first digit). */
    void request(String route, int status, long nanos) {
        AtomicReferenceArray<Timer> byStatus = timers.get(route);
        if (byStatus == null) {
            byStatus = timers.computeIfAbsent(route, r -> new AtomicReferenceArray<>(STATUS.length));
        }
        Timer timer = byStatus.get(status);
        if (timer == null) {
            timer = timer(route, STATUS[status]);
            byStatus.set(status, timer);
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Registered once per route and status (a second registration returns the first: a race costs nothing). */
    private Timer timer(String route, String status) {
        return Timer.builder("drover.router.requests").description("requests by route and status class")
                .tag("route", route).tag("status", status).serviceLevelObjectives(BUCKETS).register(meters);
    }

    void upstreamError(String route, Failure failure) {
        errors.computeIfAbsent(route + ' ' + failure.label(), k -> Counter.builder("drover.router.upstream.errors")
                .description("failures on the way to an instance").tag("route", route).tag("kind", failure.label())
                .register(meters)).increment();
    }
}
