package io.drover.model.lrp;

import io.drover.model.messaging.Outbox;
import java.time.Clock;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/** Builds the two lifecycles over one set of operations; the auto-configuration's way in to package-private wiring. */
public final class LifecycleFactory {

    private final ActualLrpOperations ops;
    private final LifecycleRecorder recorder;
    private final TransactionTemplate tx;
    private final Clock clock;
    private final Supplier<UUID> ids;
    private final DefinitionHistory history;
    private final DesiredLrpStore desiredRows;

    /** @param tx JDBC transactions on the DataSource of {@code jdbc} */
    public LifecycleFactory(TransactionTemplate tx, JdbcTemplate jdbc, Outbox outbox, Clock clock, Supplier<UUID> ids,
            CrashRestartPolicy policy) {
        this.tx = tx;
        this.clock = clock;
        this.ids = ids;
        ActualLrpStore store = new ActualLrpStore(jdbc);
        this.ops = new ActualLrpOperations(store, clock, ids, policy);
        this.recorder = new LifecycleRecorder(store, jdbc, outbox, clock, ids, policy);
        this.history = new DefinitionHistory(jdbc);
        this.desiredRows = new DesiredLrpStore(jdbc);
    }

    public ActualLrpLifecycle actualLrpLifecycle(int optimisticLockAttempts) {
        return new ActualLrpLifecycle(tx, ops, recorder, new OptimisticRetry(optimisticLockAttempts));
    }

    /** A desired LRP lifecycle whose desire and remove retry lost races up to 8 times. */
    public DesiredLrpLifecycle desiredLrpLifecycle() {
        return desiredLrpLifecycle(8);
    }

    public DesiredLrpLifecycle desiredLrpLifecycle(int optimisticLockAttempts) {
        return new DesiredLrpLifecycle(tx, ops, recorder, clock, ids, new OptimisticRetry(optimisticLockAttempts),
                history, desiredRows);
    }
}
