package io.drover.converger.pass;

import io.drover.converger.plan.Plan;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link PassHook} the converger ITs arm: the next pass, right after it read its snapshot and planned, runs the
 * armed action once (the world changing during a pass), then passes go on as usual.
 */
public final class OncePassHook implements PassHook {

    private final AtomicReference<Runnable> armed = new AtomicReference<>();

    /** Runs {@code action} in the next pass, between its snapshot and its repairs. */
    public void duringNextPass(Runnable action) {
        armed.set(action);
    }

    /** Whether the armed action has run. */
    public boolean ran() {
        return armed.get() == null;
    }

    @Override
    public void beforeApplying(Plan plan) {
        Runnable action = armed.getAndSet(null);
        if (action != null) {
            action.run();
        }
    }
}
