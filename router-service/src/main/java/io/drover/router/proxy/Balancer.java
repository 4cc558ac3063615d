package io.drover.router.proxy;

import io.drover.router.RouterProperties;
import io.drover.router.table.Backend;
import io.drover.router.table.HostRoute;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Picks the instance of a route for a request: in turn, or the one with the fewest requests in flight from this router
 * (ties in turn). Counts what is in flight per instance for the second.
 */
final class Balancer {

    private final RouterProperties.Balancing balancing;
    private final ConcurrentHashMap<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

    Balancer(RouterProperties.Balancing balancing) {
        this.balancing = balancing;
    }

    /** An instance of {@code route} other than {@code excluded} (null: any), or null when there is none. */
    Backend pick(HostRoute route, Backend excluded) {
        List<Backend> backends = route.backends();
        int size = backends.size();
        if (size == 0 || (size == 1 && same(backends.get(0), excluded))) {
            return null;
        }
        int start = route.nextPosition();
        if (balancing == RouterProperties.Balancing.ROUND_ROBIN) {
            Backend candidate = backends.get(start % size);
            return same(candidate, excluded) ? backends.get((start + 1) % size) : candidate;
        }
        Backend best = null;
        int fewest = Integer.MAX_VALUE;
        for (int i = 0; i < size; i++) {
            Backend candidate = backends.get((start + i) % size);
            if (same(candidate, excluded)) {
                continue;
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

    void started(Backend backend) {
        inFlight.computeIfAbsent(backend.instanceGuid(), g -> new AtomicInteger()).incrementAndGet();
    }

    void finished(Backend backend) {
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
