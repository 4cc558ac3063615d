package io.drover.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

/**
 * The benchmark's own threads: the clients that load the receptor and their HTTP machinery. They run in the cluster's
 * JVM, so the CPU account must tell them apart to leave them out of what Drover costs: pools are named
 * {@code bench-client-N}, and the selector thread each {@link HttpClient} starts is remembered by id.
 */
final class BenchThreads {

    static final String PREFIX = "bench-";
    private static final AtomicInteger COUNT = new AtomicInteger();
    private static final Set<Long> SELECTORS = ConcurrentHashMap.newKeySet();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private BenchThreads() {
    }

    /** A fixed pool of client threads named {@code bench-client-N}. */
    static ExecutorService pool(int threads) {
        return Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, PREFIX + "client-" + COUNT.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Calls {@code request} with 0 to {@code n - 1} from {@code concurrency} client threads at once and waits up to
     * {@code wait} for every call; returns how many answered false (a request the receptor did not accept).
     */
    static int inParallel(int n, int concurrency, IntPredicate request, Duration wait) throws InterruptedException {
        return inParallel(n, concurrency, request, wait, null);
    }

    /** The same, telling {@code progress} (when not null) of every answer. */
    static int inParallel(int n, int concurrency, IntPredicate request, Duration wait, Console.Progress progress)
            throws InterruptedException {
        AtomicInteger failed = new AtomicInteger();
        ExecutorService pool = pool(concurrency);
        for (int i = 0; i < n; i++) {
            int index = i;
            pool.submit(() -> {
                if (!request.test(index)) {
                    failed.incrementAndGet();
                }
                if (progress != null) {
                    progress.increment();
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(wait.toNanos(), TimeUnit.NANOSECONDS);
        return failed.get();
    }

    /** Builds an HTTP client on a named pool and remembers the selector thread it starts. */
    static HttpClient client(HttpClient.Builder builder, int threads) {
        Set<Long> before = selectorIds();
        HttpClient client = builder.executor(pool(threads)).build();
        Set<Long> started = selectorIds();
        started.removeAll(before);
        SELECTORS.addAll(started);
        return client;
    }

    /** Whether a thread is the benchmark's own. */
    static boolean isBenchmarks(long id, String name) {
        return name.startsWith(PREFIX) || SELECTORS.contains(id);
    }

    /** Remembers as the benchmark's the JDK HTTP server's dispatcher threads running now (the callback recorder's). */
    static void rememberHttpServerDispatchers() {
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("HTTP-Dispatcher")) {
                SELECTORS.add(info.getThreadId());
            }
        }
    }

    private static Set<Long> selectorIds() {
        Set<Long> ids = new HashSet<>();
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("HttpClient-")
                    && info.getThreadName().endsWith("-SelectorManager")) {
                ids.add(info.getThreadId());
            }
        }
        return ids;
    }
}
