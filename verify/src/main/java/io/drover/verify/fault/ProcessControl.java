package io.drover.verify.fault;

import io.drover.cluster.ProcessCluster;
import io.drover.verify.check.FaultKinds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The faults of the local cluster with each service in a JVM of its own ({@code --separate-jvms}): a rep killed with
 * SIGKILL and started again, PostgreSQL and the broker restarted, workloads killed, and the leader of the converger or
 * the auctioneer frozen with SIGSTOP (past its lock's TTL, so that the standby takes over) and thawed with SIGCONT. The
 * leader is the process whose log names the holder of the service's row in {@code leader_locks}. No drains here (the
 * reps' admin ports are not known) and no message faults (the interceptor's rates live in this JVM).
 */
public final class ProcessControl implements ClusterControl {

    private final ProcessCluster cluster;
    private final Path logs;
    private final List<String> cells;
    private final Map<String, Long> frozen = new ConcurrentHashMap<>();

    public ProcessControl(ProcessCluster cluster, Path logs, List<String> cells) {
        this.cluster = cluster;
        this.logs = logs;
        this.cells = List.copyOf(cells);
    }

    @Override
    public Set<String> supported() {
        return Set.of(FaultKinds.REP_KILL, FaultKinds.DATABASE, FaultKinds.KAFKA, FaultKinds.WORKLOAD_KILL,
                FaultKinds.LEADER_FREEZE);
    }

    @Override
    public List<String> cells() {
        return cells;
    }

    @Override
    public void killRep(int i) {
        cluster.kill("rep-service-" + i);
    }

    @Override
    public void restartRep(int i) {
        cluster.respawn("rep-service-" + i);
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

    @Override
    public boolean freezeLeader(String service) {
        Optional<ProcessCluster.Service> leader = leader(service);
        if (leader.isEmpty()) {
            return false;
        }
        long pid = leader.get().process().pid();
        signal("-STOP", pid);
        frozen.put(service, pid);
        return true;
    }

    @Override
    public void thawLeader(String service) {
        Long pid = frozen.remove(service);
        if (pid != null) {
            signal("-CONT", pid);
        }
    }

    /** The child JVM of {@code service} whose log names the holder of its leader lock. */
    private Optional<ProcessCluster.Service> leader(String service) {
        String kind = service.replace("-service", "");
        String holder;
        try (Connection db = DriverManager.getConnection(cluster.jdbcUrl(), "postgres", "postgres");
                Statement s = db.createStatement();
                ResultSet rs = s.executeQuery("SELECT name, holder FROM leader_locks WHERE expires_at > now()")) {
            holder = null;
            while (rs.next()) {
                if (rs.getString(1).contains(kind)) {
                    holder = rs.getString(2);
                }
            }
        } catch (SQLException e) {
            return Optional.empty();
        }
        if (holder == null) {
            return Optional.empty();
        }
        String wanted = "holder=" + holder;
        return cluster.services().stream().filter(s -> s.name().startsWith(service)).filter(s -> {
            try {
                return Files.readString(logs.resolve(s.name() + ".log")).contains(wanted);
            } catch (IOException | RuntimeException e) {
                return false;
            }
        }).findFirst();
    }

    private static void signal(String signal, long pid) {
        try {
            new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
