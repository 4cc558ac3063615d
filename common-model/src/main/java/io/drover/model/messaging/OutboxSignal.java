package io.drover.model.messaging;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** Wakes the relay of this JVM as soon as a transaction that wrote outbox rows commits. */
public class OutboxSignal {

    private final Semaphore pending = new Semaphore(0);

    public void wakeUp() {
        if (pending.availablePermits() == 0) {
            pending.release();
        }
    }

    /** Waits until woken or the timeout passes (the poll that catches rows written by other JVMs). */
    public boolean await(Duration timeout) throws InterruptedException {
        boolean woken = pending.tryAcquire(timeout.toMillis(), TimeUnit.MILLISECONDS);
        pending.drainPermits();
        return woken;
    }
}
