package io.drover.verify.compose;

import io.drover.verify.check.FaultKinds;
import io.drover.verify.fault.ClusterControl;
import io.drover.verify.fault.FaultPlan;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The faults of the compose cluster, all through Docker: a rep's container killed ({@code docker kill}: the rep and
 * its workloads die together, as when a cell's machine fails) and started again; PostgreSQL's and the broker's
 * containers stopped and started on their volumes; the leader of the converger or the auctioneer (the container whose
 * log names the holder of its lock) paused with {@code docker pause} past its lock's TTL and unpaused; a rep or the
 * converger's leader cut off the compose network ({@code docker network disconnect}) and connected again under its
 * service name. Workloads are killed on this machine (their processes are this kernel's). Message faults cannot be
 * injected: their interceptor would have to be on the services' classpath. A container started again is healed once
 * its health check passes, so a fault lasts until its service serves again.
 */
public final class ComposeControl implements ClusterControl {

    /**
     * How long a container started again may take to serve (the heal, and its fault, end then): a rep started while
     * the broker or PostgreSQL is away exits and is restarted by Docker until they are back.
     */
    static final Duration BACK = Duration.ofMinutes(5);

    private final Docker docker;
    private final Project project;
    private final Project.Network network;
    private final Map<String, String> repOfCell;
    private final Duration leaderTtl;
    private final Map<String, String> paused = new ConcurrentHashMap<>();
    private final Map<String, String> cut = new ConcurrentHashMap<>();

    ComposeControl(Docker docker, Project project, Project.Network network, List<String> reps, Duration leaderTtl) {
        this.docker = docker;
        this.project = project;
        this.network = network;
        this.repOfCell = new LinkedHashMap<>();
        reps.forEach(rep -> repOfCell.put(project.env(rep).get("DROVER_REP_CELL_ID"), rep));
        this.leaderTtl = leaderTtl;
    }

    @Override
    public Set<String> supported() {
        return Set.of(FaultKinds.REP_KILL, FaultKinds.DRAIN, FaultKinds.DATABASE, FaultKinds.KAFKA,
                FaultKinds.WORKLOAD_KILL, FaultKinds.LEADER_FREEZE, FaultKinds.PARTITION);
    }

    @Override
    public List<String> cells() {
        return List.copyOf(repOfCell.keySet());
    }

    @Override
    public void killRep(int i) {
        docker.run("kill", project.container(rep(i)));
    }

    @Override
    public void restartRep(int i) {
        project.startAndAwaitHealthy(rep(i), BACK);
    }

    @Override
    public void stopDatabase() {
        docker.run("stop", "-t", "10", project.container("postgres"));
    }

    @Override
    public void startDatabase() {
        project.startAndAwaitHealthy("postgres", BACK);
    }

    @Override
    public void stopBroker() {
        docker.run("stop", "-t", "10", project.container("kafka"));
    }

    @Override
    public void startBroker() {
        project.startAndAwaitHealthy("kafka", BACK);
    }

    @Override
    public boolean freezeLeader(String service) {
        Optional<String> leader = leader(service);
        leader.ifPresent(container -> {
            docker.run("pause", project.container(container));
            paused.put(service, container);
        });
        return leader.isPresent();
    }

    @Override
    public void thawLeader(String service) {
        String container = paused.remove(service);
        if (container != null) {
            docker.run("unpause", project.container(container));
        }
    }

    @Override
    public boolean partition(String target) {
        Optional<String> service = repOfCell.containsKey(target) ? Optional.of(repOfCell.get(target)) : leader(target);
        service.ifPresent(s -> {
            docker.run("network", "disconnect", network.name(), project.container(s));
            cut.put(target, s);
        });
        return service.isPresent();
    }

    /**
     * Connects the container again under its service name. Docker publishes its ports again then; when one was taken
     * meanwhile, the connect fails and leaves the container connected without its ports, so it is disconnected and
     * tried again; if that never works, the container is restarted (its rep and workloads die, as in a rep kill) so
     * that the run goes on with a whole cluster, and the heal reports the failure.
     */
    @Override
    public void reconnect(String target) {
        String service = cut.remove(target);
        if (service == null) {
            return;
        }
        String container = project.container(service);
        RuntimeException failure = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                docker.run("network", "connect", "--alias", service, network.name(), container);
                return;
            } catch (RuntimeException e) {
                failure = e;
                docker.attempt("network", "disconnect", network.name(), container);
                pause(2000);
            }
        }
        docker.run("restart", "-t", "2", container);
        throw new IllegalStateException(service + " could not be connected again, restarted: " + failure.getMessage());
    }

    @Override
    public boolean slowHeals() {
        return true;
    }

    @Override
    public FaultPlan.Lengths faultLengths(Duration presenceTtl) {
        return FaultPlan.Lengths.compose(presenceTtl, leaderTtl);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String rep(int i) {
        return List.copyOf(repOfCell.values()).get(i);
    }

    /** The compose service ({@code converger-2}) whose container holds the leader lock of {@code service}. */
    private Optional<String> leader(String service) {
        String lock = service.replace("-service", "");
        Map<String, String> env = project.env("postgres");
        Optional<String> rows = docker.attempt("exec", project.container("postgres"), "psql", "-U",
                env.getOrDefault("POSTGRES_USER", "drover"), "-d", env.getOrDefault("POSTGRES_DB", "drover"), "-tA",
                "-F", "|", "-c", "SELECT name, holder FROM leader_locks WHERE expires_at > now()");
        Optional<String> holder = rows.flatMap(r -> Leaders.holder(r, lock));
        if (holder.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> logs = new LinkedHashMap<>();
        for (String candidate : List.of(lock + "-1", lock + "-2")) {
            logs.put(candidate, project.logs(candidate));
        }
        return Leaders.among(holder.get(), logs);
    }
}
