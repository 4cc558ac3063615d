package io.drover.model.lrp;

import org.springframework.dao.OptimisticLockingFailureException;

/**
 * Whether a row version a transaction reads was written by a transaction that took its id after this one: the relay
 * and the event stream publish in transaction-id order, so a change built on such a version would be published before
 * the change it built on. It happens when a transaction waits for a row lock after its id was taken (PostgreSQL takes
 * it at the first write or lock, then waits) and another, younger transaction gets there first: a share lock granted
 * beside another one, a row re-read after the update it waited for, a slot read again after the transaction's first
 * write. Such a read is a lost race, retried from the start with a fresh id ({@link OptimisticRetry}). A transaction
 * without an id yet reads nothing younger than itself by construction: this is false for every row it reads.
 */
final class RowVersions {

    private RowVersions() {
    }

    /**
     * A boolean SQL expression on {@code alias.xmin}, null-safe (a row that is not there is not younger). Transaction
     * ids wrap at 2^32: the difference to this transaction's id, taken modulo 2^32, is in (0, 2^31) for a younger one.
     */
    static String writtenAfterThisTransaction(String alias) {
        return "coalesce((((" + alias + ".xmin::text::bigint - pg_current_xact_id_if_assigned()::text::bigint) "
                + "% 4294967296 + 4294967296) % 4294967296) BETWEEN 1 AND 2147483647, false)";
    }

    static OptimisticLockingFailureException writtenAfter(String what) {
        return new OptimisticLockingFailureException(what + " was written by a transaction younger than this one, "
                + "which took its id first: read again under a new id");
    }
}
