package io.drover.converger.plan;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The task repairs one pass decided, by rule.
 *
 * @param retries PENDING tasks to auction again, each with the last change or placement the plan saw
 * @param failPending PENDING tasks to fail, with their reason (placement given up, pending too long)
 * @param failRunning RUNNING tasks on a lost cell, to fail
 * @param revertResolving RESOLVING for too long, back to COMPLETED
 * @param expire COMPLETED and unresolved for too long, to delete
 * @param deferredRetries re-auctions left for a later pass by the rate limit
 */
public record TaskPlan(Map<String, Instant> retries, Map<String, String> failPending, Map<String, String> failRunning,
        List<String> revertResolving, List<String> expire, int deferredRetries) {

    public TaskPlan {
        retries = Map.copyOf(retries);
        failPending = Map.copyOf(failPending);
        failRunning = Map.copyOf(failRunning);
        revertResolving = List.copyOf(revertResolving);
        expire = List.copyOf(expire);
    }

    public int actions() {
        return retries.size() + failPending.size() + failRunning.size() + revertResolving.size() + expire.size();
    }

    public boolean isEmpty() {
        return actions() == 0 && deferredRetries == 0;
    }

    /** Collects a plan; {@link TaskConvergence} fills it, tests spell out the plan they expect with it. */
    public static final class Builder {

        private final Map<String, Instant> retries = new LinkedHashMap<>();
        private final Map<String, String> failPending = new LinkedHashMap<>();
        private final Map<String, String> failRunning = new LinkedHashMap<>();
        private final List<String> revertResolving = new java.util.ArrayList<>();
        private final List<String> expire = new java.util.ArrayList<>();
        private int deferredRetries;

        public Builder retry(String guid, Instant seen) {
            retries.put(guid, seen);
            return this;
        }

        public Builder failPending(String guid, String reason) {
            failPending.put(guid, reason);
            return this;
        }

        public Builder failRunning(String guid, String reason) {
            failRunning.put(guid, reason);
            return this;
        }

        public Builder revertResolving(String guid) {
            revertResolving.add(guid);
            return this;
        }

        public Builder expire(String guid) {
            expire.add(guid);
            return this;
        }

        public Builder deferRetry() {
            deferredRetries++;
            return this;
        }

        int retryCount() {
            return retries.size();
        }

        public TaskPlan build() {
            return new TaskPlan(retries, failPending, failRunning, revertResolving, expire, deferredRetries);
        }
    }

    public static Builder builder() {
        return new Builder();
    }
}
