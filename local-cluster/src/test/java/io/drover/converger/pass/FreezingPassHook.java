package io.drover.converger.pass;

import io.drover.converger.plan.Plan;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The converger's {@link PassHook} for failover tests (here, in the converger's package, because the seam is
 * package-private): once armed, it freezes the first pass about to apply a matching plan, right after that pass read
 * its snapshot and planned, until the test releases it.
 */
public final class FreezingPassHook implements PassHook {

    private static final Duration LONGEST_FREEZE = Duration.ofMinutes(2);

    private final CountDownLatch frozen = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile Predicate<Plan> armed;
    private volatile Plan frozenPlan;

    /** Registers this hook as a bean of the converger context it initializes. */
    public ApplicationContextInitializer<ConfigurableApplicationContext> asBean() {
        return context -> context.getBeanFactory().registerSingleton("freezingPassHook", this);
    }

    /** Freezes the next pass whose plan matches (once). */
    public void freezeNextPassThat(Predicate<Plan> when) {
        armed = when;
    }

    /** Waits until a pass is frozen; returns its plan, or null if none froze in time. */
    public Plan awaitFrozen(Duration timeout) throws InterruptedException {
        return frozen.await(timeout.toMillis(), TimeUnit.MILLISECONDS) ? frozenPlan : null;
    }

    /** Lets the frozen pass go on and apply its (by now stale) plan. */
    public void release() {
        released.countDown();
    }

    @Override
    public void beforeApplying(Plan plan) {
        Predicate<Plan> when = armed;
        if (when == null || !when.test(plan)) {
            return;
        }
        armed = null;
        frozenPlan = plan;
        frozen.countDown();
        boolean interrupted = false;
        long deadline = System.nanoTime() + LONGEST_FREEZE.toNanos();
        // a paused process does not notice its context closing either: only the test (or the bound) wakes it
        while (released.getCount() > 0 && System.nanoTime() < deadline) {
            try {
                released.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
