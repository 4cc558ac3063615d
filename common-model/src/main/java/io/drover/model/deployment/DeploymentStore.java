package io.drover.model.deployment;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;

/** Reads and writes {@code deployments} rows over JDBC; writes are versioned (a lost race is a conflict). */
final class DeploymentStore {

    static final String COLUMNS = "id, process_guid, state, from_version, to_version, max_surge, max_unavailable, "
            + "min_healthy_time_s, progress_deadline_s, auto_revert, canary, promoted, reverts, failure_reason, "
            + "created_by, created_at, updated_at, progress_at, finished_at, version";

    private static final String ACTIVE = "state IN ('RUNNING', 'PAUSED', 'WAITING_FOR_PROMOTION')";

    private final JdbcTemplate jdbc;

    DeploymentStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    Optional<Deployment> find(UUID id) {
        return jdbc.query("SELECT " + COLUMNS + " FROM deployments WHERE id = ?", DeploymentStore::map, id).stream()
                .findFirst();
    }

    /** The LRP's active deployment, locked until the transaction ends (one writer at a time per LRP). */
    Optional<Deployment> activeForUpdate(String processGuid) {
        return jdbc.query("SELECT " + COLUMNS + " FROM deployments WHERE process_guid = ? AND " + ACTIVE
                + " FOR UPDATE", DeploymentStore::map, processGuid).stream().findFirst();
    }

    /** The LRP's latest {@code limit} deployments, newest first. */
    List<Deployment> of(String processGuid, int limit) {
        return jdbc.query("SELECT " + COLUMNS + " FROM deployments WHERE process_guid = ? ORDER BY created_at DESC, "
                + "id LIMIT ?", DeploymentStore::map, processGuid, limit);
    }

    /**
     * The LRP's last stable definition version (as Nomad's auto-revert has it): the target of its newest SUCCESSFUL
     * deployment that an instance proved ({@link #proven}); with none, the version it had before its first deployment.
     * Empty for an LRP never deployed.
     */
    java.util.OptionalInt stableVersion(String processGuid) {
        List<Integer> versions = jdbc.queryForList("(SELECT to_version FROM deployments WHERE process_guid = ? AND "
                + "state = 'SUCCESSFUL' AND proven ORDER BY finished_at DESC, id DESC LIMIT 1) UNION ALL "
                + "(SELECT from_version FROM deployments WHERE process_guid = ? ORDER BY created_at, id LIMIT 1)",
                Integer.class, processGuid, processGuid);
        return versions.isEmpty() ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(versions.get(0));
    }

    /** Every active deployment. */
    List<Deployment> active() {
        return jdbc.query("SELECT " + COLUMNS + " FROM deployments WHERE " + ACTIVE + " ORDER BY process_guid",
                DeploymentStore::map);
    }

    void insert(Deployment d) {
        jdbc.update("INSERT INTO deployments (" + COLUMNS + ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                d.id(), d.processGuid(), d.state().name(), d.fromVersion(), d.toVersion(), d.maxSurge(),
                d.maxUnavailable(), d.minHealthyTime(), d.progressDeadline(), d.autoRevert(), d.canary(),
                d.promoted(), d.reverts(), d.failureReason(), d.createdBy(), ts(d.createdAt()), ts(d.updatedAt()),
                ts(d.progressAt()), ts(d.finishedAt()), d.version());
    }

    /** Marks a SUCCESSFUL deployment's version as proven: an instance ran it healthy (V31). */
    void proven(java.util.UUID id) {
        jdbc.update("UPDATE deployments SET proven = true WHERE id = ?", id);
    }

    /** Writes {@code d} if the row is still at its version; returns it at the next version. */
    Deployment update(Deployment d) {
        int n = jdbc.update("UPDATE deployments SET state = ?, promoted = ?, failure_reason = ?, updated_at = ?, "
                + "progress_at = ?, finished_at = ?, version = version + 1 WHERE id = ? AND version = ?",
                d.state().name(), d.promoted(), d.failureReason(), ts(d.updatedAt()), ts(d.progressAt()),
                ts(d.finishedAt()), d.id(), d.version());
        if (n != 1) {
            throw new OptimisticLockingFailureException("deployment " + d.id() + " changed meanwhile");
        }
        return find(d.id()).orElseThrow();
    }

    private static Timestamp ts(Instant i) {
        return i == null ? null : Timestamp.from(i);
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    static Deployment map(ResultSet rs, int row) throws SQLException {
        return new Deployment(rs.getObject(1, UUID.class), rs.getString(2), DeploymentState.valueOf(rs.getString(3)),
                rs.getInt(4), rs.getInt(5), rs.getString(6), rs.getString(7), rs.getInt(8), rs.getInt(9),
                rs.getBoolean(10), rs.getInt(11), rs.getBoolean(12), rs.getObject(13, UUID.class), rs.getString(14),
                rs.getString(15), instant(rs, 16), instant(rs, 17), instant(rs, 18), instant(rs, 19), rs.getLong(20));
    }
}
