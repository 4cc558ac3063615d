package io.drover.converger;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.springframework.context.SmartLifecycle;

/**
 * Work the converger's leader does every interval, on a thread of its own named for it: each tick runs
 * {@link #tickAsLeader()} only while this converger leads (standbys keep the timer, so a new leader starts at once).
 */
public abstract class LeaderTicker implements SmartLifecycle {

    private final String threadName;
    private final BooleanSupplier leader;
    private final long intervalMillis;
    private ScheduledExecutorService thread;

    protected LeaderTicker(String threadName, BooleanSupplier leader, long intervalMillis) {
        this.threadName = threadName;
        this.leader = leader;
        this.intervalMillis = intervalMillis;
    }

    /** One tick of the leader's work; what it throws is its own to log. */
    protected abstract void tickAsLeader();

    private void tick() {
        if (leader.getAsBoolean()) {
            tickAsLeader();
        }
    }

    @Override
    public synchronized void start() {
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        thread.scheduleWithFixedDelay(this::tick, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (thread != null) {
            thread.shutdownNow();
            thread = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return thread != null;
    }
}
