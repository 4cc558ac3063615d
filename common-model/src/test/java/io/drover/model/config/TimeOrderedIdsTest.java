package io.drover.model.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class TimeOrderedIdsTest {

    private final TimeOrderedIds ids = new TimeOrderedIds();

    @Test
    void anIdIsAnRfcVersion7UuidStampedWithTheTimeItWasMade() {
        long before = System.currentTimeMillis();
        UUID id = ids.get();
        long after = System.currentTimeMillis();

        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(TimeOrderedIds.millis(id)).isBetween(before, after);
        assertThat(UUID.fromString(id.toString())).isEqualTo(id);
    }

    @Test
    void idsMadeInALaterMillisecondSortLater() throws InterruptedException {
        UUID first = ids.get();
        long stamp = TimeOrderedIds.millis(first);
        while (System.currentTimeMillis() == stamp) {
            Thread.sleep(1);
        }
        UUID later = ids.get();

        assertThat(later.toString()).isGreaterThan(first.toString());
        assertThat(TimeOrderedIds.millis(later)).isGreaterThan(stamp);
    }

    @Test
    void manyThreadsMakingIdsInTheSameMillisecondsNeverRepeatOne() throws Exception {
        Set<UUID> seen = ConcurrentHashMap.newKeySet();
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> made = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                made.add(threads.submit(() -> {
                    int repeated = 0;
                    for (int i = 0; i < 50_000; i++) {
                        repeated += seen.add(ids.get()) ? 0 : 1;
                    }
                    return repeated;
                }));
            }
            for (Future<Integer> f : made) {
                assertThat(f.get()).isZero();
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(seen).hasSize(400_000);
    }
}
