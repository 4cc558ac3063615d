package io.drover.router.proxy;

import io.drover.router.RouterProperties;
import io.drover.router.table.Backend;
import io.drover.router.table.HostRoute;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Picks the instance of a route for a request: in turn, or the one with the fewest requests in flight from this router
 * (ties in turn). Counts what is in flight per instance for the second. An instance that refused a connection is left
 * out for {@code ejectFor} while the route has others (a crashed instance, a cell gone: until the table learns it).
 */
final class Balancer {

    private final RouterProperties.Balancing balancing;
    private final long ejectNanos;
    private final LongSupplier nanoTime;
    private final ConcurrentHashMap<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Long> ejectedUntil = new ConcurrentHashMap<>();
    private final boolean counts;

    Balancer(RouterProperties.Balancing balancing, Duration ejectFor, LongSupplier nanoTime) {
        this.balancing = balancing;
        this.counts = balancing == RouterProperties.Balancing.LEAST_IN_FLIGHT;
        this.ejectNanos = ejectFor.toNanos();
        this.nanoTime = nanoTime;
    }

    /** An instance of {@code route} other than {@code excluded} (null: any), or null when there is none. */
    Backend pick(HostRoute route, Backend excluded) {
        List<Backend> backends = route.backends();
        int size = backends.size();
        if (size == 0 || (size == 1 && same(backends.get(0), excluded))) {
            return null;
        }
        int start = route.nextPosition();
        boolean skipEjected = !ejectedUntil.isEmpty() && anyUsable(backends, excluded);
        Backend best = null;
        int fewest = Integer.MAX_VALUE;
        for (int i = 0; i < size; i++) {
            Backend candidate = backends.get((start + i) % size);
            if (same(candidate, excluded) || (skipEjected && ejected(candidate))) {
                continue;
            }
            if (balancing == RouterProperties.Balancing.ROUND_ROBIN) {
                return candidate;
            }
            AtomicInteger count = inFlight.get(candidate.instanceGuid());
            int load = count == null ? 0 : count.get();
            if (load < fewest) {
                best = candidate;
                fewest = load;
            }
        }
        return best;
    }

    /** The instance refused a connection: leave it out for a while. */
    void refused(Backend backend) {
        ejectedUntil.put(backend.instanceGuid(), nanoTime.getAsLong() + ejectNanos);
    }

    private boolean anyUsable(List<Backend> backends, Backend excluded) {
        for (Backend b : backends) {
            if (!same(b, excluded) && !ejected(b)) {
                return true;
            }
        }
        return false;
    }

    private boolean ejected(Backend backend) {
        Long until = ejectedUntil.get(backend.instanceGuid());
        if (until == null) {
            return false;
        }
        if (until - nanoTime.getAsLong() > 0) {
            return true;
        }
        ejectedUntil.remove(backend.instanceGuid(), until);
        return false;
    }

    /** A request went to the instance (counted for least-in-flight only: round-robin needs no count). */
    void started(Backend backend) {
        if (!counts) {
            return;
        }
        inFlight.computeIfAbsent(backend.instanceGuid(), g -> new AtomicInteger()).incrementAndGet();
    }

    void finished(Backend backend) {
        if (!counts) {
            return;
        }
        inFlight.computeIfPresent(backend.instanceGuid(), (g, count) -> count.decrementAndGet() <= 0 ? null : count);
    }

    int inFlight(Backend backend) {
        AtomicInteger count = inFlight.get(backend.instanceGuid());
        return count == null ? 0 : count.get();
    }

    private static boolean same(Backend a, Backend b) {
        return b != null && a.instanceGuid().equals(b.instanceGuid());
    }
}
