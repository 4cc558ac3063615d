package io.drover.cluster;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/** Starts parts of the local cluster side by side, each on a thread of its own; a failure names its part. */
final class Parts {

    private Parts() {
    }

    static <T> CompletableFuture<T> start(String part, Supplier<T> work) {
        CompletableFuture<T> future = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                future.complete(work.get());
            } catch (LocalClusterStartException e) {
                future.completeExceptionally(e);
            } catch (Throwable t) {
                future.completeExceptionally(new LocalClusterStartException(part, t));
            }
        }, "local-cluster-start");
        thread.start();
        return future;
    }

    /** Waits until every part has started or failed; never throws. */
    static void awaitAll(CompletableFuture<?>... parts) {
        CompletableFuture.allOf(parts).exceptionally(e -> null).join();
    }

    /** The part's value, or null when it failed. */
    static <T> T started(CompletableFuture<T> part) {
        return part.isCompletedExceptionally() ? null : part.join();
    }

    /** Throws the failure of the first part that failed, in the order given. */
    static void rethrowFirstFailure(CompletableFuture<?>... parts) {
        for (CompletableFuture<?> part : parts) {
            try {
                part.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
        }
    }
}
