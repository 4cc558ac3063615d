package io.drover.model.task;

import io.drover.model.json.Json;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.EnvVar;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import tools.jackson.core.type.TypeReference;

/**
 * Reads and writes {@code tasks} rows over JDBC in the actual LRP store's way: one query loads any number of tasks,
 * one statement per kind of write ({@code UPDATE ... FROM unnest(...) WHERE version = ...},
 * {@code DELETE ... USING unnest(...)}) writes them, and a row count short of the batch is the optimistic-lock conflict
 * it is ({@link OptimisticLockingFailureException}, retried with a fresh read). Only the lifecycle writes through it.
 */
final class TaskStore {

    static final String COLUMNS = "t.task_guid, t.domain, t.rootfs, t.action, t.env, t.memory_mb, t.disk_mb, "
            + "t.cpu_weight, t.max_pids, t.placement_tags, t.result_file, t.completion_callback_url, t.annotation, "
            + "t.log_guid, t.metrics_guid, t.state, t.cell_id, t.failed, t.failure_reason, t.result, "
            + "t.placement_error, t.placed_cell_id, t.placed_at, t.placement_attempts, t.created_at, t.updated_at, "
            + "t.first_completed_at, t.epoch, t.version, t.callback_status, t.callback_attempts, "
            + "t.callback_last_status, t.callback_last_at, t.callback_next_at";

    private static final String INSERT = """
            INSERT INTO tasks (task_guid, domain, rootfs, action, env, memory_mb, disk_mb, cpu_weight, max_pids,
                placement_tags, result_file, completion_callback_url, annotation, log_guid, metrics_guid, state,
                failed, result, placement_attempts, created_at, updated_at, epoch, version, callback_status)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PENDING', false, '', 0, ?, ?, ?, 0, ?)""";

    /** The columns the task's lifecycle verbs change; the callback's go only with a callback's change. */
    private static final String UPDATE = """
            UPDATE tasks t SET state = v.s, cell_id = v.c, failed = v.f, failure_reason = v.fr, result = v.r,
                placement_error = v.pe, placed_cell_id = v.pc, placed_at = v.pa::timestamptz,
                placement_attempts = v.n, updated_at = v.ua::timestamptz, first_completed_at = v.fc::timestamptz,
                version = t.version + 1
            FROM unnest(?::varchar[], ?::bigint[], ?::varchar[], ?::varchar[], ?::boolean[], ?::text[], ?::text[],
                ?::text[], ?::varchar[], ?::text[], ?::int[], ?::text[], ?::text[])
                AS v(g, ver, s, c, f, fr, r, pe, pc, pa, n, ua, fc)
            WHERE t.task_guid = v.g AND t.version = v.ver
            RETURNING t.task_guid""";

    private static final String UPDATE_WITH_CALLBACK = """
            UPDATE tasks t SET state = v.s, cell_id = v.c, failed = v.f, failure_reason = v.fr, result = v.r,
                placement_error = v.pe, placed_cell_id = v.pc, placed_at = v.pa::timestamptz,
                placement_attempts = v.n, updated_at = v.ua::timestamptz, first_completed_at = v.fc::timestamptz,
                callback_status = v.cs, callback_attempts = v.ca, callback_last_status = v.cl,
                callback_last_at = v.cla::timestamptz, callback_next_at = v.cn::timestamptz, version = t.version + 1
            FROM unnest(?::varchar[], ?::bigint[], ?::varchar[], ?::varchar[], ?::boolean[], ?::text[], ?::text[],
                ?::text[], ?::varchar[], ?::text[], ?::int[], ?::text[], ?::text[], ?::varchar[], ?::int[], ?::int[],
                ?::text[], ?::text[])
                AS v(g, ver, s, c, f, fr, r, pe, pc, pa, n, ua, fc, cs, ca, cl, cla, cn)
            WHERE t.task_guid = v.g AND t.version = v.ver
            RETURNING t.task_guid""";

    /** Deletes and leaves a tombstone of each deleted task, in one statement. */
    private static final String DELETE = """
            WITH v AS (SELECT * FROM unnest(?::varchar[], ?::bigint[], ?::varchar[]) AS v(g, ver, dg)),
            d AS (DELETE FROM tasks t USING v WHERE t.task_guid = v.g AND t.version = v.ver
                RETURNING t.task_guid, t.domain)
            INSERT INTO task_tombstones (task_guid, domain, digest, deleted_at)
            SELECT d.task_guid, d.domain, v.dg, ?::timestamptz FROM d JOIN v ON v.g = d.task_guid
            ON CONFLICT (task_guid) DO UPDATE SET domain = EXCLUDED.domain, digest = EXCLUDED.digest,
                deleted_at = EXCLUDED.deleted_at
            RETURNING task_guid""";

    /** A submission's one read: the task of its guid, or else the tombstone of a deleted one. */
    private static final String LOAD_FOR_SUBMIT = "SELECT " + "%s, tb.domain, tb.digest, tb.deleted_at, q.g FROM "
            + "unnest(?::varchar[]) AS q(g) LEFT JOIN tasks t ON t.task_guid = q.g "
            + "LEFT JOIN task_tombstones tb ON tb.task_guid = q.g";

    private static final TypeReference<List<EnvVar>> ENV = new TypeReference<>() {
    };
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };

    private final JdbcTemplate jdbc;

    TaskStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The tasks among these guids that exist, in one query. */
    Map<String, Task> load(Collection<String> guids) {
        Map<String, Task> found = new LinkedHashMap<>();
        if (guids.isEmpty()) {
            return found;
        }
        String[] distinct = new LinkedHashSet<>(guids).toArray(String[]::new);
        jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement("SELECT " + COLUMNS + " FROM tasks t WHERE t.task_guid = ANY (?)");
            ps.setArray(1, con.createArrayOf("varchar", distinct));
            return ps;
        }, (RowCallbackHandler) rs -> {
            Task task = map(rs);
            found.put(task.guid(), task);
        });
        return found;
    }

    /** What a submission finds of its guid: the task, or a deleted task's tombstone, or neither. */
    record Found(Task task, TaskTombstone tombstone) {
    }

    /**
     * The task of each of {@code guids}, or the tombstone left when it was deleted, in one query; a guid with neither
     * is missing from the answer.
     */
    Map<String, Found> loadForSubmit(Collection<String> guids) {
        Map<String, Found> found = new HashMap<>();
        if (guids.isEmpty()) {
            return found;
        }
        jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement(LOAD_FOR_SUBMIT.formatted(COLUMNS));
            ps.setArray(1, con.createArrayOf("varchar", new LinkedHashSet<>(guids).toArray()));
            return ps;
        }, (RowCallbackHandler) rs -> {
            String guid = rs.getString(38);
            Task task = rs.getString(1) == null ? null : map(rs);
            TaskTombstone tombstone = rs.getString(36) == null ? null
                    : new TaskTombstone(guid, rs.getString(35), rs.getString(36), toInstant(rs, 37));
            if (task != null || tombstone != null) {
                found.put(guid, new Found(task, tombstone));
            }
        });
        return found;
    }

    /** Deletes up to {@code limit} tombstones of tasks deleted before {@code before}; returns how many. */
    int pruneTombstones(Instant before, int limit) {
        return jdbc.update("DELETE FROM task_tombstones WHERE task_guid IN (SELECT task_guid FROM task_tombstones "
                + "WHERE deleted_at < ? LIMIT ?)", Timestamp.from(before), limit);
    }

    /** Inserts new tasks at version 0; a guid someone else took meanwhile is a duplicate key (a lost race). */
    void insert(Collection<Task> tasks) {
        if (tasks.isEmpty()) {
            return;
        }
        jdbc.batchUpdate(INSERT, List.copyOf(tasks), 100, (ps, t) -> {
            TaskDefinition d = t.definition();
            ps.setString(1, d.taskGuid());
            ps.setString(2, d.domain());
            ps.setString(3, d.rootfs());
            ps.setString(4, Json.write(d.action()));
            ps.setString(5, Json.write(d.env()));
            ps.setInt(6, d.memoryMb());
            ps.setInt(7, d.diskMb());
            ps.setInt(8, d.cpuWeight());
            ps.setInt(9, d.maxPids());
            ps.setString(10, Json.write(d.placementTags()));
            ps.setString(11, d.resultFile());
            ps.setString(12, d.completionCallbackUrl());
            ps.setString(13, d.annotation());
            ps.setString(14, d.logGuid());
            ps.setString(15, d.metricsGuid());
            ps.setTimestamp(16, Timestamp.from(t.createdAt()));
            ps.setTimestamp(17, Timestamp.from(t.updatedAt()));
            ps.setObject(18, t.epoch());
            ps.setString(19, t.callback() == null ? null : t.callback().status().label());
        });
    }

    /**
     * Writes changed tasks if their version is still the one read; bumps it in memory. Those in {@code withCallback}
     * are written with their callback's columns (a statement of their own), the others without.
     */
    void update(Collection<Task> tasks, Set<Task> withCallback) {
        List<Task> plain = tasks.stream().filter(t -> !withCallback.contains(t)).toList();
        List<Task> callbacks = tasks.stream().filter(withCallback::contains).toList();
        update(plain, false);
        update(callbacks, true);
    }

    private void update(List<Task> rows, boolean withCallback) {
        if (rows.isEmpty()) {
            return;
        }
        Set<String> written = write(withCallback ? UPDATE_WITH_CALLBACK : UPDATE, (con, ps) -> {
            ps.setArray(1, strings(con, rows, Task::guid));
            ps.setArray(2, con.createArrayOf("int8", rows.stream().map(Task::version).toArray()));
            ps.setArray(3, strings(con, rows, t -> t.state().name()));
            ps.setArray(4, strings(con, rows, Task::cellId));
            ps.setArray(5, con.createArrayOf("bool", rows.stream().map(Task::failed).toArray()));
            ps.setArray(6, strings(con, rows, Task::failureReason));
            ps.setArray(7, strings(con, rows, Task::result));
            ps.setArray(8, strings(con, rows, Task::placementError));
            ps.setArray(9, strings(con, rows, Task::placedCellId));
            ps.setArray(10, strings(con, rows, t -> instant(t.placedAt())));
            ps.setArray(11, con.createArrayOf("int4", rows.stream().map(Task::placementAttempts).toArray()));
            ps.setArray(12, strings(con, rows, t -> instant(t.updatedAt())));
            ps.setArray(13, strings(con, rows, t -> instant(t.firstCompletedAt())));
            if (withCallback) {
                ps.setArray(14, strings(con, rows, t -> t.callback().status().label()));
                ps.setArray(15, con.createArrayOf("int4", rows.stream().map(t -> t.callback().attempts()).toArray()));
                ps.setArray(16, con.createArrayOf("int4", rows.stream().map(t -> t.callback().lastStatus()).toArray()));
                ps.setArray(17, strings(con, rows, t -> instant(t.callback().lastAt())));
                ps.setArray(18, strings(con, rows, t -> instant(t.callback().nextAt())));
            }
        });
        confirm(rows, written, "updated");
        rows.forEach(Task::written);
    }

    /** Deletes tasks if their version is still the one read, each leaving its tombstone, deleted at {@code now}. */
    void delete(Collection<Task> tasks, Instant now) {
        if (tasks.isEmpty()) {
            return;
        }
        List<Task> rows = List.copyOf(tasks);
        Set<String> written = write(DELETE, (con, ps) -> {
            ps.setArray(1, strings(con, rows, Task::guid));
            ps.setArray(2, con.createArrayOf("int8", rows.stream().map(Task::version).toArray()));
            ps.setArray(3, strings(con, rows, t -> t.definition().digest()));
            ps.setString(4, now.toString());
        });
        confirm(rows, written, "deleted");
    }

    private Set<String> write(String sql, Binder binder) {
        Set<String> written = new HashSet<>();
        jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement(sql);
            binder.bind(con, ps);
            return ps;
        }, (RowCallbackHandler) rs -> written.add(rs.getString(1)));
        return written;
    }

    private static void confirm(List<Task> rows, Set<String> written, String what) {
        if (written.size() != rows.size()) {
            List<String> lost = rows.stream().map(Task::guid).filter(g -> !written.contains(g)).limit(5).toList();
            throw new OptimisticLockingFailureException((rows.size() - written.size()) + " of " + rows.size()
                    + " tasks not " + what + ": changed or removed meanwhile, e.g. " + lost);
        }
    }

    /** Maps a row selected with {@link #COLUMNS}. */
    static Task map(ResultSet rs) throws SQLException {
        TaskDefinition definition = new TaskDefinition(rs.getString(1), rs.getString(2), rs.getString(3),
                Json.read(rs.getString(4), Action.class), Json.read(rs.getString(5), ENV), rs.getInt(6),
                rs.getInt(7), rs.getInt(8), rs.getInt(9), Json.read(rs.getString(10), STRINGS), rs.getString(11),
                rs.getString(12), rs.getString(13), rs.getString(14), rs.getString(15));
        Task.Stored stored = new Task.Stored(TaskState.valueOf(rs.getString(16)), rs.getString(17),
                rs.getBoolean(18), rs.getString(19), rs.getString(20), rs.getString(21), rs.getString(22),
                toInstant(rs, 23), rs.getInt(24), toInstant(rs, 26), toInstant(rs, 27), callback(rs), rs.getLong(29));
        return Task.stored(definition, rs.getObject(28, UUID.class), toInstant(rs, 25), stored);
    }

    private static TaskCallback callback(ResultSet rs) throws SQLException {
        CallbackStatus status = CallbackStatus.of(rs.getString(30));
        if (status == null) {
            return null;
        }
        int attempts = rs.getInt(31);
        int lastStatus = rs.getInt(32);
        Integer last = rs.wasNull() ? null : lastStatus;
        return new TaskCallback(status, attempts, last, toInstant(rs, 33), toInstant(rs, 34));
    }

    static Instant toInstant(ResultSet rs, int column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    private static String instant(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    private static <T> Array strings(Connection con, List<T> rows, Function<T, String> column) throws SQLException {
        return con.createArrayOf("varchar", rows.stream().map(column).toArray());
    }

    @FunctionalInterface
    private interface Binder {
        void bind(Connection con, PreparedStatement ps) throws SQLException;
    }
}
