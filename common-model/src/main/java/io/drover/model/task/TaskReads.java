package io.drover.model.task;

import io.drover.model.json.Json;
import io.drover.model.read.ListFingerprint;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import tools.jackson.core.type.TypeReference;

/**
 * Every read of {@code tasks} a service makes, as named queries (writes go through {@link TaskLifecycle}): the API's
 * views, the auctioneer's work, the converger's summaries, a cell's own tasks, and the completions waiting for a
 * callback. Each is an index scan or one pass over a table of bounded size. What tasks take on a cell is counted with
 * everything else a cell carries, by {@code io.drover.model.read.CellLoads}.
 */
public class TaskReads {

    private static final String SELECT = "SELECT " + TaskStore.COLUMNS + " FROM tasks t ";
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };

    private final JdbcTemplate jdbc;

    public TaskReads(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<TaskSnapshot> find(String guid) {
        return jdbc.query(SELECT + "WHERE t.task_guid = ?", (rs, i) -> TaskStore.map(rs).snapshot(), guid).stream()
                .findFirst();
    }

    /** Tasks by guid, as they are now (missing ones were never submitted or are deleted). */
    public Map<String, TaskSnapshot> find(Collection<String> guids) {
        Map<String, TaskSnapshot> found = new LinkedHashMap<>();
        if (!guids.isEmpty()) {
            jdbc.query(con -> {
                var ps = con.prepareStatement(SELECT + "WHERE t.task_guid = ANY (?)");
                ps.setArray(1, con.createArrayOf("varchar", guids.toArray()));
                return ps;
            }, (RowCallbackHandler) rs -> {
                TaskSnapshot task = TaskStore.map(rs).snapshot();
                found.put(task.taskGuid(), task);
            });
        }
        return found;
    }

    /** Which tasks a listing shows: each filter given (null: any) must match. */
    public record TaskFilter(String domain, String cellId, TaskState state) {

        public static final TaskFilter ALL = new TaskFilter(null, null, null);

        private String where(List<Object> args) {
            StringBuilder where = new StringBuilder("WHERE true");
            if (domain != null) {
                where.append(" AND t.domain = ?");
                args.add(domain);
            }
            if (cellId != null) {
                where.append(" AND t.cell_id = ?");
                args.add(cellId);
            }
            if (state != null) {
                where.append(" AND t.state = ?");
                args.add(state.name());
            }
            return where.toString();
        }
    }

    /**
     * Up to {@code limit} tasks matching {@code filter} in task_guid order after {@code afterGuid} (from the start when
     * null): a keyset page (by domain, the index on (domain, task_guid)).
     */
    public List<TaskSnapshot> page(TaskFilter filter, String afterGuid, int limit) {
        List<Object> args = new ArrayList<>();
        String where = filter.where(args);
        if (afterGuid != null) {
            where += " AND t.task_guid > ?";
            args.add(afterGuid);
        }
        args.add(limit);
        return jdbc.query(SELECT + where + " ORDER BY t.task_guid LIMIT ?", (rs, i) -> TaskStore.map(rs).snapshot(),
                args.toArray());
    }

    /** Up to {@code limit} tasks in task_guid order after {@code afterGuid} (from the start when null). */
    public List<TaskSnapshot> page(String afterGuid, int limit) {
        return page(TaskFilter.ALL, afterGuid, limit);
    }

    /** The fingerprint of the tasks matching {@code filter} (see {@link ListFingerprint}). */
    public ListFingerprint fingerprint(TaskFilter filter) {
        List<Object> args = new ArrayList<>();
        return jdbc.queryForObject("SELECT count(*), coalesce(sum(hashtextextended(t.task_guid || '.' || t.epoch || '.' "
                + "|| t.version, 0)), 0)::text FROM tasks t " + filter.where(args),
                (rs, i) -> new ListFingerprint(rs.getLong(1), rs.getString(2)), args.toArray());
    }

    /** Of these tasks, those an auction may place: PENDING with no placement in flight, with what they need. */
    public List<Placeable> placeable(Collection<String> guids) {
        List<Placeable> work = new ArrayList<>();
        if (guids.isEmpty()) {
            return work;
        }
        jdbc.query(con -> {
            var ps = con.prepareStatement("SELECT task_guid, memory_mb, disk_mb, rootfs, placement_tags FROM tasks "
                    + "WHERE task_guid = ANY (?) AND state = 'PENDING' AND placed_cell_id IS NULL");
            ps.setArray(1, con.createArrayOf("varchar", guids.toArray()));
            return ps;
        }, (RowCallbackHandler) rs -> work.add(new Placeable(rs.getString(1), rs.getInt(2), rs.getInt(3),
                rs.getString(4), Set.copyOf(Json.read(rs.getString(5), STRINGS)))));
        return work;
    }

    /** Every task, with only what the converger's task rules look at. */
    public List<TaskSummary> summaries() {
        return jdbc.query("SELECT " + SUMMARY + " FROM tasks", TaskReads::summary);
    }

    /** The tasks running (or being resolved, completed...) on this cell, and those of {@code guids} wherever they are. */
    public List<TaskSummary> ofCell(String cellId, Collection<String> guids) {
        return jdbc.query(con -> {
            var ps = con.prepareStatement("SELECT " + SUMMARY + " FROM tasks WHERE (cell_id = ? AND state = "
                    + "'RUNNING') OR task_guid = ANY (?)");
            ps.setString(1, cellId);
            ps.setArray(2, con.createArrayOf("varchar", guids.toArray()));
            return ps;
        }, TaskReads::summary);
    }

    /**
     * The callback worker's queue: up to {@code limit} completed tasks whose callback is pending and due by {@code now}
     * (its next attempt's time, or its completion for a first attempt), the longest due first. An index scan of the
     * due tasks only (tasks_callback_due_idx): given-up and delivered callbacks, and tasks waiting for a later attempt,
     * are never read, so no number of them holds the others back.
     */
    public List<TaskSnapshot> callbacksDue(Instant now, int limit) {
        return jdbc.query(SELECT + "WHERE t.state = 'COMPLETED' AND t.callback_status = 'pending' "
                + "AND coalesce(t.callback_next_at, t.first_completed_at) <= ? "
                + "ORDER BY coalesce(t.callback_next_at, t.first_completed_at) LIMIT ?",
                (rs, i) -> TaskStore.map(rs).snapshot(), java.sql.Timestamp.from(now), limit);
    }

    /**
     * How many tasks of {@code domain} are unfinished (PENDING or RUNNING), counted on the index on (domain,
     * task_guid): what a submission's admission holds against the domain's limit.
     */
    public long unfinished(String domain) {
        return jdbc.queryForObject("SELECT count(*) FROM tasks WHERE domain = ? AND state IN ('PENDING', 'RUNNING')",
                Long.class, domain);
    }

    public long count() {
        return jdbc.queryForObject("SELECT count(*) FROM tasks", Long.class);
    }

    private static final String SUMMARY = "task_guid, state, cell_id, placed_cell_id, placed_at, placement_error, "
            + "placement_attempts, created_at, updated_at, first_completed_at, epoch, callback_status, callback_last_at";

    private static TaskSummary summary(ResultSet rs, int row) throws SQLException {
        return new TaskSummary(rs.getString(1), TaskState.valueOf(rs.getString(2)), rs.getString(3), rs.getString(4),
                TaskStore.toInstant(rs, 5), rs.getString(6), rs.getInt(7), TaskStore.toInstant(rs, 8),
                TaskStore.toInstant(rs, 9), TaskStore.toInstant(rs, 10), rs.getObject(11, UUID.class),
                CallbackStatus.of(rs.getString(12)), TaskStore.toInstant(rs, 13));
    }

    /** A task an auction may place, with what it needs of a cell. */
    public record Placeable(String taskGuid, int memoryMb, int diskMb, String rootfs, Set<String> placementTags) {
    }

    /**
     * A task as the converger and a cell's sync see it. {@code updatedAt} is its last visible change, {@code placedAt}
     * the time an auction placed it (PENDING only); {@code callbackStatus} is null for a task without a callback URL,
     * {@code callbackLastAt} the time of its callback's last attempt (null before the first).
     */
    public record TaskSummary(String taskGuid, TaskState state, String cellId, String placedCellId, Instant placedAt,
            String placementError, int placementAttempts, Instant createdAt, Instant updatedAt,
            Instant firstCompletedAt, UUID epoch, CallbackStatus callbackStatus, Instant callbackLastAt) {

        /** A task without a completion callback. */
        public TaskSummary(String taskGuid, TaskState state, String cellId, String placedCellId, Instant placedAt,
                String placementError, int placementAttempts, Instant createdAt, Instant updatedAt,
                Instant firstCompletedAt, UUID epoch) {
            this(taskGuid, state, cellId, placedCellId, placedAt, placementError, placementAttempts, createdAt,
                    updatedAt, firstCompletedAt, epoch, null, null);
        }

        /** The later of its last change and its placement. */
        public Instant lastTouched() {
            return Task.lastTouched(updatedAt, placedAt);
        }

        /** Whether its completion callback is still to be delivered (or given up). */
        public boolean callbackPending() {
            return callbackStatus == CallbackStatus.PENDING;
        }
    }
}
