package io.drover.converger.pass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.converger.plan.Plan;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When passes run: coalesced, never overlapping, leader only, soon after a lost cell or a rate-limited pass; and the
 * leader's look at the planner statistics at every watch.
 */
class ConvergenceLoopTest {

    private final List<String> triggers = new CopyOnWriteArrayList<>();
    private final AtomicBoolean leader = new AtomicBoolean(true);
    private final AtomicBoolean cellLost = new AtomicBoolean();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger maxRunning = new AtomicInteger();
    private final AtomicInteger statisticsKept = new AtomicInteger();
    private volatile Plan nextPlan = Plan.builder().build();
    private ConvergenceLoop loop;

    @AfterEach
    void stop() {
        loop.stop();
    }

    @Test
    void requestsThatArriveBeforeAPassStartsShareIt() {
        start(Duration.ofHours(1));
        await().until(() -> triggers.contains("started"));
        for (int i = 0; i < 20; i++) {
            loop.desiredLrpChanged();
        }

        await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(2))
                .until(() -> triggers.equals(List.of("started", "desired-lrp-changed")));
    }

    @Test
    void passesNeverOverlap() {
        start(Duration.ofMillis(5));
        for (int i = 0; i < 50; i++) {
            loop.requestPass("burst", Duration.ZERO);
        }

        await().until(() -> triggers.size() >= 20);
        assertThat(maxRunning).hasValue(1);
    }

    @Test
    void aStandbyRunsNoPassesUntilItIsElected() {
        leader.set(false);
        start(Duration.ofMillis(20));
        cellLost.set(true);

        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(triggers::isEmpty);
        leader.set(true);
        loop.elected();
        // the first pass may be the election's, a tick's or the lost cell's: requests due at once share one pass
        await().atMost(Duration.ofSeconds(30)).until(() -> !triggers.isEmpty());
    }

    @Test
    void anElectedLeaderConvergesAtOnceRatherThanAtTheNextTick() {
        leader.set(false);
        start(Duration.ofHours(1));

        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(triggers::isEmpty);
        leader.set(true);
        loop.elected();
        await().atMost(Duration.ofSeconds(30)).until(() -> triggers.equals(List.of("elected")));
    }

    @Test
    void onlyTheLeaderKeepsThePlannerStatisticsUpAndAtEveryWatchNotAtEveryPass() {
        leader.set(false);
        start(Duration.ofHours(1));

        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> statisticsKept.get() == 0);
        leader.set(true);
        await().until(() -> statisticsKept.get() >= 5);
        assertThat(triggers).as("no pass asked for by the statistics' watch").isEmpty();
    }

    @Test
    void aLostCellTriggersAPassWithoutWaitingForTheInterval() {
        start(Duration.ofHours(1));
        await().until(() -> triggers.contains("started"));

        cellLost.set(true);

        await().atMost(Duration.ofSeconds(1)).until(() -> triggers.contains("cell-lost"));
    }

    @Test
    void aPassThatDeferredLostCellsAsksForAFollowUp() {
        nextPlan = Plan.builder().deferredLostCell(3).build();
        start(Duration.ofHours(1));
        await().until(() -> triggers.contains("started"));
        nextPlan = Plan.builder().build();

        await().atMost(Duration.ofSeconds(1)).until(() -> triggers.contains("lost-cell-deferred"));
    }

    @Test
    void aPassThatDeferredStaleUnclaimedInstancesAsksForAFollowUp() {
        nextPlan = Plan.builder().deferredStaleUnclaimed(1_500).build();
        start(Duration.ofHours(1));
        await().until(() -> triggers.contains("started"));
        nextPlan = Plan.builder().build();

        await().atMost(Duration.ofSeconds(1)).until(() -> triggers.contains("stale-unclaimed-deferred"));
    }

    private void start(Duration interval) {
        ConvergencePass pass = new ConvergencePass(null, null, null, null, PassHook.NONE, null, null, null) {
            @Override
            PassReport run(String trigger) {
                maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                triggers.add(trigger);
                LockSupport.parkNanos(1_000_000); // a pass takes time: long enough to see an overlap if one happened
                running.decrementAndGet();
                return new PassReport(trigger, 0, nextPlan, new Execution(), Duration.ZERO, Duration.ZERO,
                        Duration.ZERO);
            }
        };
        CellLossWatcher cells = new CellLossWatcher(null, null) {
            @Override
            synchronized boolean cellsLostSinceLastLook() {
                return cellLost.getAndSet(false);
            }
        };
        loop = new ConvergenceLoop(pass, cells, statisticsKept::incrementAndGet, leader::get,
                new ConvergenceLoop.Timings(interval, Duration.ofMillis(20), Duration.ofMillis(10),
                        Duration.ofMillis(100)), e -> {
                });
        loop.start();
    }
}
