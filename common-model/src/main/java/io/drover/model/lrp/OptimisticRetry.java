package io.drover.model.lrp;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Runs a whole transaction again, with a fresh read, when it lost an optimistic-lock race (or an insert race on the
 * primary key, or PostgreSQL chose it as a deadlock victim; see {@link Conflicts}). Bounded and jittered; refuses to
 * run inside a transaction because retrying there would re-read stale state.
 */
public class OptimisticRetry {

    private final int maxAttempts;

    public OptimisticRetry(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    public <T> T run(String operation, Supplier<T> transaction) {
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException(operation + " must be retried from outside a transaction");
        }
        RuntimeException last = null;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            try {
                return transaction.get();
            } catch (RuntimeException e) {
                if (!Conflicts.isRetryable(e)) {
                    throw e;
                }
                last = e;
                LifecycleMetrics.optimisticLockRetry(operation);
                pause(attempt);
            }
        }
        throw new LifecycleConflictException(operation + " kept conflicting after " + maxAttempts + " attempts", last);
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10L * attempt + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while retrying", e);
        }
    }
}
