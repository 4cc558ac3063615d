package io.drover.model.lrp;

import io.micrometer.core.instrument.Metrics;

/** Counters of the lifecycle, on Micrometer's global registry (which Spring Boot wires to its own). */
final class LifecycleMetrics {

    private LifecycleMetrics() {
    }

    static void optimisticLockRetry(String operation) {
        Metrics.counter("drover.lifecycle.optimistic.lock.retries", "operation", operation).increment();
    }

    static void transition(String operation, int count) {
        if (count > 0) {
            Metrics.counter("drover.lifecycle.transitions", "operation", operation).increment(count);
        }
    }
}
