package io.drover.model.leader;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Keeps trying to hold one {@link LeaderLock}, renewing it every third of its TTL. Calls {@code onElected} when this
 * instance becomes the leader and {@code onRevoked} when it loses the lock or cannot renew it before it would expire
 * (so two leaders never act at once for longer than the clock skew). Hot standbys simply keep trying. When
 * {@code onElected} fails, the instance runs {@code onRevoked}, gives the lock up and competes again at its next tick.
 * A try to take or renew the lock that throws (the database away, say) is also handed to {@code onTryFailed}, leader or
 * standby.
 */
public class LeaderElection implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);

    private final LeaderLock lock;
    private final String name;
    private final String holder;
    private final Duration ttl;
    private final Runnable onElected;
    private final Runnable onRevoked;
    private final Consumer<RuntimeException> onTryFailed;
    private ScheduledExecutorService scheduler;
    private volatile boolean leader;
    private volatile long lastRenewedNanos;

    public LeaderElection(LeaderLock lock, String name, Duration ttl, Runnable onElected, Runnable onRevoked) {
        this(lock, name, ttl, onElected, onRevoked, e -> {
        });
    }

    public LeaderElection(LeaderLock lock, String name, Duration ttl, Runnable onElected, Runnable onRevoked,
            Consumer<RuntimeException> onTryFailed) {
        this.onTryFailed = onTryFailed;
        this.lock = lock;
        this.name = name;
        this.holder = name + "-" + UUID.randomUUID();
        this.ttl = ttl;
        this.onElected = onElected;
        this.onRevoked = onRevoked;
    }

    public boolean isLeader() {
        return leader;
    }

    public String holder() {
        return holder;
    }

    /** The name of the lock this election competes for. */
    public String name() {
        return name;
    }

    @Override
    public synchronized void start() {
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "leader-" + name);
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleWithFixedDelay(this::tick, 0, Math.max(50, ttl.toMillis() / 3), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (scheduler == null) {
            return;
        }
        scheduler.shutdownNow();
        awaitInFlightTick(scheduler);
        scheduler = null;
        if (leader) {
            revoke("stopping");
            try {
                lock.release(name, holder);
            } catch (RuntimeException e) {
                log.warn("leader-release-failed lock={} cause={}", name, e.toString());
            }
        }
    }

    /** A renewal running now would otherwise re-elect this instance after it revoked and released below. */
    private void awaitInFlightTick(ScheduledExecutorService stopping) {
        try {
            if (!stopping.awaitTermination(ttl.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("leader-stop-renewal-still-running lock={} holder={}", name, holder);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return scheduler != null;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 100;
    }

    private void tick() {
        try {
            boolean held = lock.tryAcquire(name, holder, ttl);
            if (held) {
                lastRenewedNanos = System.nanoTime();
                if (!leader) {
                    elect();
                }
            } else if (leader) {
                revoke("lock taken");
            }
        } catch (RuntimeException e) {
            log.warn("leader-renew-failed lock={} cause={}", name, e.toString());
            if (leader && System.nanoTime() - lastRenewedNanos > ttl.toNanos() * 2 / 3) {
                revoke("could not renew");
            }
            onTryFailed.accept(e);
        }
    }

    /**
     * A leader that cannot start its work (its Kafka consumer cannot be built while the broker's name does not resolve,
     * say) must not keep the lock: standbys would wait on it forever while nobody does the work. It undoes the half
     * start, lets go of the lock, and the next tick of any instance (this one included) tries again.
     */
    private void elect() {
        leader = true;
        log.info("leader-elected lock={} holder={}", name, holder);
        try {
            onElected.run();
        } catch (RuntimeException e) {
            log.warn("leader-start-failed lock={} holder={} cause={} (lock released, retrying)", name, holder,
                    e.toString());
            revoke("start failed");
            lock.release(name, holder);
        }
    }

    private void revoke(String why) {
        leader = false;
        log.info("leader-revoked lock={} holder={} why={}", name, holder, why);
        try {
            onRevoked.run();
        } catch (RuntimeException e) {
            log.warn("leader-revoke-callback-failed lock={} cause={}", name, e.toString());
        }
    }
}
