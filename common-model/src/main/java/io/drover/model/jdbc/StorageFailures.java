package io.drover.model.jdbc;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * Recognises "the database is unreachable" however it surfaces: Spring's translated exceptions, a transaction that
 * could not start (no pooled connection in time), or a raw JDBC failure in the cause chain whose SQLState says the
 * connection broke (class 08) or the server is shutting down (57P01-57P03), or a transaction whose commit or rollback
 * failed on the JDBC connection itself (the pool then reports only "Connection is closed", and the rollback failure
 * replaces the original error). The receptor answers such a request with a 503 the client may retry, not a 500; the
 * rep's group commit does not look for a refused item in a batch that failed this way.
 */
public final class StorageFailures {

    private StorageFailures() {
    }

    /** Whether {@code e} (or anything in its cause chain) says the database could not be reached or used. */
    public static boolean isUnavailable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof DataAccessResourceFailureException || t instanceof TransientDataAccessException
                    || t instanceof CannotCreateTransactionException || t instanceof SQLTransientConnectionException) {
                return true;
            }
            // a JDBC transaction's commit or rollback that failed on the connection (DataSourceTransactionManager)
            if (t instanceof TransactionSystemException && t.getCause() instanceof SQLException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P"))) {
                return true;
            }
        }
        return false;
    }
}
