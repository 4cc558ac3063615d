package io.drover.verify.fault;

import io.drover.cluster.LocalCluster;
import io.drover.verify.check.FaultKinds;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The faults of the local cluster in one JVM: a rep stopped in shutdown mode {@code keep} (it says nothing, its
 * workloads go on: what SIGKILL of the rep process leaves) and started again, PostgreSQL and the broker stopped and
 * started on the same data and ports, drains, message faults, workloads killed. A leader cannot be frozen here (one
 * JVM): that needs {@code --separate-jvms}.
 */
public final class LocalControl implements ClusterControl {

    /** How many of the log's last lines from the loops convergence waits on the diagnostics carry. */
    static final int LOG_LINES = 40;
    private static final Pattern LOOP_LINES = Pattern.compile(
            " \\[(deployer|convergence-loop|leader-converger|leader-auctioneer)\\] ");

    private final LocalCluster cluster;
    private final Path log;
    private final List<String> cells = new ArrayList<>();

    /** @param log the file the cluster's services log to (null: none) */
    public LocalControl(LocalCluster cluster, Path log) {
        this.cluster = cluster;
        this.log = log;
        for (int i = 0; i < cluster.reps().size(); i++) {
            cells.addAll(cluster.cellIds(i));
        }
    }

    @Override
    public Set<String> supported() {
        return Set.of(FaultKinds.REP_KILL, FaultKinds.DRAIN, FaultKinds.DATABASE, FaultKinds.KAFKA,
                FaultKinds.MESSAGES, FaultKinds.WORKLOAD_KILL);
    }

    @Override
    public List<String> cells() {
        return List.copyOf(cells);
    }

    @Override
    public void killRep(int i) {
        cluster.stopCell(i);
    }

    @Override
    public void restartRep(int i) {
        cluster.startCell(i);
    }

    @Override
    public void stopDatabase() {
        cluster.stopDatabase();
    }

    @Override
    public void startDatabase() {
        cluster.startDatabase();
    }

    @Override
    public void stopBroker() {
        cluster.stopKafka();
    }

    @Override
    public void startBroker() {
        cluster.startKafka();
    }

    /**
     * Every thread of this JVM (the cluster's services run in it) with its stack, then PostgreSQL's sessions that are
     * not idle and the locks waited for: a loop stuck on a lock, a socket or a monitor shows in one or the other.
     */
    @Override
    public String diagnostics() {
        StringBuilder out = new StringBuilder("threads:\n");
        Arrays.stream(ManagementFactory.getThreadMXBean().dumpAllThreads(true, true))
                .sorted(Comparator.comparing(ThreadInfo::getThreadName))
                .forEach(t -> out.append(threadDump(t)));
        out.append("database sessions (not idle), then locks waited for:\n");
        try (Connection c = DriverManager.getConnection(cluster.jdbcUrl()); Statement st = c.createStatement()) {
            rows(st, out, """
                    SELECT pid, application_name, state, now() - xact_start AS in_transaction, wait_event_type,
                        wait_event, left(regexp_replace(query, '\\s+', ' ', 'g'), 400) AS query
                    FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
                        AND state <> 'idle' ORDER BY xact_start""");
            rows(st, out, """
                    SELECT l.pid, l.locktype, l.relation::regclass, l.mode, pg_blocking_pids(l.pid) AS blocked_by
                    FROM pg_locks l WHERE NOT l.granted""");
        } catch (SQLException e) {
            out.append("  (the database did not answer: ").append(e.getMessage()).append(")\n");
        }
        out.append("the log's last lines from the loops convergence waits on:\n");
        logTail().forEach(line -> out.append("  ").append(line).append('\n'));
        return out.toString();
    }

    private List<String> logTail() {
        if (log == null || !Files.isRegularFile(log)) {
            return List.of();
        }
        try (Stream<String> lines = Files.lines(log)) {
            List<String> found = lines.filter(l -> LOOP_LINES.matcher(l).find()).toList();
            return found.subList(Math.max(0, found.size() - LOG_LINES), found.size());
        } catch (IOException | java.io.UncheckedIOException e) {
            return List.of("(the log could not be read: " + e + ")");
        }
    }

    /** A thread as {@code jstack} shows it, every frame (ThreadInfo's own text stops at eight). */
    private static String threadDump(ThreadInfo t) {
        StringBuilder s = new StringBuilder("\"" + t.getThreadName() + "\" " + t.getThreadState());
        if (t.getLockName() != null) {
            s.append(" on ").append(t.getLockName());
        }
        if (t.getLockOwnerName() != null) {
            s.append(" owned by \"").append(t.getLockOwnerName()).append('"');
        }
        s.append('\n');
        for (StackTraceElement frame : t.getStackTrace()) {
            s.append("    at ").append(frame).append('\n');
        }
        return s.toString();
    }

    private static void rows(Statement st, StringBuilder out, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                out.append(" ");
                for (int i = 1; i <= columns; i++) {
                    out.append(' ').append(rs.getMetaData().getColumnLabel(i)).append('=').append(rs.getString(i));
                }
                out.append('\n');
            }
        }
    }
}
