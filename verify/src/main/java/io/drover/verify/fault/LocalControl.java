package io.drover.verify.fault;

import io.drover.cluster.LocalCluster;
import io.drover.verify.check.FaultKinds;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The faults of the local cluster in one JVM: a rep stopped in shutdown mode {@code keep} (it says nothing, its
 * workloads go on: what SIGKILL of the rep process leaves) and started again, PostgreSQL and the broker stopped and
 * started on the same data and ports, drains, message faults, workloads killed. A leader cannot be frozen here (one
 * JVM): that needs {@code --separate-jvms}.
 */
public final class LocalControl implements ClusterControl {

    private final LocalCluster cluster;
    private final List<String> cells = new ArrayList<>();

    public LocalControl(LocalCluster cluster) {
        this.cluster = cluster;
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
}
