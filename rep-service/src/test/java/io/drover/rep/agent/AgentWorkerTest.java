package io.drover.rep.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AgentWorkerTest {

    @Test
    void passesNeverOverlapAndTheLastWakeAlwaysGetsAPass() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        AtomicBoolean inPass = new AtomicBoolean();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger seen = new AtomicInteger();
        AtomicInteger produced = new AtomicInteger();
        AgentWorker worker = new AgentWorker(pool, () -> {
            if (!inPass.compareAndSet(false, true)) {
                overlaps.incrementAndGet();
            }
            seen.set(produced.get());
            inPass.set(false);
        }, "cell-a");

        ExecutorService wakers = Executors.newFixedThreadPool(4);
        for (int i = 0; i < 10_000; i++) {
            wakers.execute(() -> {
                produced.incrementAndGet();
                worker.wake();
            });
        }
        wakers.shutdown();

        await().until(() -> wakers.isTerminated() && seen.get() == 10_000);
        assertThat(overlaps).hasValue(0);
        pool.shutdown();
    }
}
