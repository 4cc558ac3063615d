package io.drover.model.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/** Which failures mean "the database is away" (the receptor answers 503, the rep does not split its batch). */
class StorageFailuresTest {

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of("no pooled connection in time", new CannotCreateTransactionException("no connection",
                        new SQLTransientConnectionException("pool - Connection is not available")), true),
                Arguments.of("an untranslated broken connection", new IllegalStateException("write",
                        new SQLException("An I/O error occurred while sending to the backend.", "08006")), true),
                Arguments.of("a plain JDBC transaction's rollback on a closed connection", new TransactionSystemException(
                        "JDBC rollback failed", new SQLException("Connection is closed")), true),
                Arguments.of("a transaction that failed otherwise", new TransactionSystemException("could not commit"),
                        false),
                Arguments.of("server shutting down", new IllegalStateException(new SQLException(
                        "terminating connection due to administrator command", "57P01")), true),
                Arguments.of("a JDBC failure without SQLState", new IllegalStateException(new SQLException("?")),
                        false),
                Arguments.of("a constraint violation", new DataIntegrityViolationException("dup",
                        new SQLException("duplicate key", "23505")), false),
                Arguments.of("a bug", new NullPointerException(), false));
    }

    @ParameterizedTest(name = "{0}: unavailable={2}")
    @MethodSource("failures")
    void recognisesAnUnreachableDatabase(String description, Exception failure, boolean unavailable) {
        assertThat(StorageFailures.isUnavailable(failure)).isEqualTo(unavailable);
    }
}
