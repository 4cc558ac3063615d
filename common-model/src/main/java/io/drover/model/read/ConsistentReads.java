package io.drover.model.read;

import java.util.function.Supplier;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs several reads as of one instant: one read-only REPEATABLE READ transaction, so every query inside sees the
 * same snapshot of the database (and streaming scans fetch in batches, which PostgreSQL only does in a transaction).
 */
public class ConsistentReads {

    private final TransactionTemplate tx;

    public ConsistentReads(PlatformTransactionManager transactions) {
        this.tx = new TransactionTemplate(transactions);
        this.tx.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        this.tx.setReadOnly(true);
    }

    /** The result of {@code reads}, every query of which saw the same snapshot. */
    public <T> T inOneSnapshot(Supplier<T> reads) {
        return tx.execute(status -> reads.get());
    }
}
