package io.drover.model.lrp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/** Which failures mean "lost a race, run the transaction again" and how often the retry tries. */
class OptimisticRetryTest {

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of("a versioned write short of its rows", new OptimisticLockingFailureException("k"), true),
                Arguments.of("insert race on the primary key", constraint("23505"), true),
                Arguments.of("translated insert race", new DuplicateKeyException("dup",
                        new SQLException("duplicate key", "23505")), true),
                Arguments.of("an insert race wrapped again", new DataIntegrityViolationException("dup",
                        constraint("23505")), true),
                Arguments.of("deadlock victim", constraint("40P01"), true),
                Arguments.of("serialization failure", constraint("40001"), true),
                Arguments.of("CHECK violation", constraint("23514"), false),
                Arguments.of("connection lost, no SQLState", new DataAccessResourceFailureException("gone",
                        new SQLException("An I/O error occurred while sending to the backend.")), false),
                Arguments.of("illegal transition", new IllegalTransitionException(ActualLrpKey.of("p", 0), "no"), false),
                Arguments.of("anything else", new IllegalStateException("boom"), false));
    }

    @ParameterizedTest(name = "{0} is retryable: {2}")
    @MethodSource("failures")
    void retriesOnlyLostRaces(String description, RuntimeException failure, boolean retryable) {
        assertThat(Conflicts.isRetryable(failure)).isEqualTo(retryable);
    }

    @Test
    void aLostRaceIsRunAgainWithAFreshTransaction() {
        AtomicInteger attempts = new AtomicInteger();
        String result = new OptimisticRetry(5).run("claim", () -> {
            if (attempts.incrementAndGet() < 3) {
                throw new OptimisticLockingFailureException("lost");
            }
            return "won";
        });
        assertThat(result).isEqualTo("won");
        assertThat(attempts).hasValue(3);
    }

    @Test
    void retriesAreBoundedAndEndInALifecycleConflict() {
        AtomicInteger attempts = new AtomicInteger();
        assertThatThrownBy(() -> new OptimisticRetry(4).run("claim", () -> {
            attempts.incrementAndGet();
            throw new OptimisticLockingFailureException("lost");
        })).isInstanceOf(LifecycleConflictException.class).hasCauseInstanceOf(OptimisticLockingFailureException.class);
        assertThat(attempts).hasValue(4);
    }

    @Test
    void anythingElseFailsAtOnce() {
        AtomicInteger attempts = new AtomicInteger();
        assertThatThrownBy(() -> new OptimisticRetry(4).run("claim", () -> {
            attempts.incrementAndGet();
            throw new IllegalTransitionException(ActualLrpKey.of("p", 0), "owned by another cell");
        })).isInstanceOf(IllegalTransitionException.class);
        assertThat(attempts).hasValue(1);
    }

    @Test
    void refusesToRetryInsideACallersTransaction() {
        TransactionSynchronizationManager.setActualTransactionActive(true);
        try {
            assertThatThrownBy(() -> new OptimisticRetry(4).run("claim", () -> "x"))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("outside a transaction");
        } finally {
            TransactionSynchronizationManager.setActualTransactionActive(false);
        }
    }

    /** PostgreSQL's error as a statement of JdbcTemplate's surfaces when no translation applies. */
    private static UncategorizedSQLException constraint(String sqlState) {
        return new UncategorizedSQLException("write", "INSERT ...", new SQLException("violation", sqlState));
    }
}
