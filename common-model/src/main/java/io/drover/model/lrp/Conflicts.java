package io.drover.model.lrp;

import java.sql.SQLException;
import java.util.Set;
import org.springframework.dao.OptimisticLockingFailureException;

/**
 * Recognises a lost race however it surfaces: a write whose row count fell short ({@link
 * OptimisticLockingFailureException}), or PostgreSQL's SQLState anywhere in the cause chain, translated by Spring or
 * not.
 */
final class Conflicts {

    /** unique_violation: two transactions inserted the same key. */
    private static final String DUPLICATE_KEY = "23505";
    /** serialization_failure and deadlock_detected: PostgreSQL picked this transaction as the loser. */
    private static final Set<String> LOST_RACE = Set.of("40001", "40P01");

    private Conflicts() {
    }

    /** Whether running the whole transaction again, with a fresh read, may succeed. */
    static boolean isRetryable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof OptimisticLockingFailureException) {
                return true;
            }
            // a lost connection's SQLException may carry no SQLState at all (and Set.of rejects null lookups)
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (DUPLICATE_KEY.equals(sql.getSQLState()) || LOST_RACE.contains(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    /** Whether the transaction lost a race to insert the same primary key. */
    static boolean isDuplicateKey(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && DUPLICATE_KEY.equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }
}
