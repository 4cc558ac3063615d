package io.drover.rep.executor.process;

import io.drover.rep.executor.Container;
import io.drover.rep.executor.process.cgroup.Cgroups;
import io.drover.rep.executor.process.cgroup.InstanceCgroup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-adopts what a previous run of the rep left in a cell's directory. A container with a cgroup is adopted while its
 * cgroup has live processes (whatever became of its leader); one without is adopted when its leader is alive with the
 * recorded start time (a reused pid has another), or, for a daemonised container, when members of its session are.
 * Everything else is dead: leftovers of its tree are killed and its directory and cgroup removed. In cgroup mode the
 * cell's cgroups are the inventory: one that no pid file accounts for holds processes nobody can manage, so they are
 * killed and it is removed.
 */
final class Adoption {

    private static final Logger log = LoggerFactory.getLogger(Adoption.class);

    private static final Duration KILL_WAIT = Duration.ofSeconds(2);

    private final ProcessRuntime runtime;

    private final Path cellDir;

    private final String cellName;

    private final Set<String> held;

    Adoption(ProcessRuntime runtime, Path cellDir, String cellName, Set<String> heldInstanceGuids) {
        this.runtime = runtime;
        this.cellDir = cellDir;
        this.cellName = cellName;
        this.held = heldInstanceGuids.stream().map(InstanceDir::safeName).collect(Collectors.toSet());
    }

    List<ProcessContainer> run(Consumer<Container> publisher) {
        List<ProcessContainer> adopted = new ArrayList<>();
        if (Files.isDirectory(cellDir)) {
            ProcTable table = ProcTable.read();
            try (Stream<Path> dirs = Files.list(cellDir)) {
                dirs.filter(Files::isDirectory).filter(d -> !held.contains(d.getFileName().toString()))
                        .map(InstanceDir::new)
                        .forEach(dir -> adoptOne(dir, table, publisher).ifPresent(adopted::add));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        runtime.isolation().cgroups().ifPresent(cgroups -> removeOrphans(cgroups, adopted));
        return adopted;
    }

    private Optional<ProcessContainer> adoptOne(InstanceDir dir, ProcTable table, Consumer<Container> publisher) {
        Optional<PidFile> read = PidFile.read(dir.pidFile());
        if (read.isEmpty()) {
            log.info("adopt-container-skipped dir={} reason=\"no pid file\"", dir.root());
            dir.delete();
            return Optional.empty();
        }
        PidFile file = read.get();
        Optional<InstanceCgroup> cgroup = cgroupOf(file);
        boolean alive = cgroup.isPresent() ? cgroupAlive(file, cgroup.get()) : treeAlive(file, table);
        if (!alive) {
            log.info("adopt-container-gone instance_guid={} pid={}", file.instanceGuid(), file.pid());
            cgroup.ifPresent(this::killAndRemove);
            SandboxedInstance gone = PlacedInstance.adopted(file, dir, null, cgroup).sandboxed();
            runtime.sandbox().release(gone);
            runtime.sandbox().forgotten(gone);
            dir.delete();
            return Optional.empty();
        }
        InstanceJournal journal = new InstanceJournal(dir, runtime.clock(), runtime.properties().logCap().toBytes());
        ProcessContainer container = ProcessContainer.adopt(file, PlacedInstance.adopted(file, dir, journal, cgroup),
                publisher);
        if (!runtime.ports().reserveExisting(container.instance().hostPorts())) {
            log.warn("adopt-container-port-clash instance_guid={} ports={}", file.instanceGuid(), file.ports());
        }
        runtime.sandbox().adopted(container.instance().sandboxed());
        log.info("adopt-container instance_guid={} process_guid={} index={} pid={} running={} cgroup={}",
                file.instanceGuid(), file.processGuid(), file.index(), file.pid(), file.running(), cgroup.isPresent());
        return Optional.of(container);
    }

    /** Without a cgroup: the leader alive with its start time, or a daemonised session with members; else killed. */
    private static boolean treeAlive(PidFile file, ProcTable table) {
        ProcessIdentity leader = new ProcessIdentity(file.pid(), file.startTime());
        List<ProcStat> members = table.members(new TreeRoots(leader, file.session(), Set.of()));
        boolean leaderAlive = table.get(file.pid())
                .filter(s -> s.startTime() == file.startTime() && s.alive()).isPresent();
        if (!leaderAlive && !(file.daemonised() && !members.isEmpty())) {
            Signals.kill(members);
            return false;
        }
        return true;
    }

    /** With a cgroup: the leader alive in it with its start time, or a daemonised tree with members left. */
    private static boolean cgroupAlive(PidFile file, InstanceCgroup cgroup) {
        List<ProcStat> members = live(cgroup);
        ProcessIdentity leader = new ProcessIdentity(file.pid(), file.startTime());
        return members.stream().anyMatch(m -> ProcessIdentity.of(m).equals(leader))
                || file.daemonised() && !members.isEmpty();
    }

    /** The recorded cgroup, when this rep uses cgroups of the same version; else the tree is found from /proc. */
    private Optional<InstanceCgroup> cgroupOf(PidFile file) {
        Map<String, Path> dirs = file.cgroupDirs();
        return runtime.isolation().cgroups().filter(cgroups -> !dirs.isEmpty()
                && dirs.keySet().equals(cgroups.bases().keySet())).map(cgroups -> cgroups.at(dirs));
    }

    private void removeOrphans(Cgroups cgroups, List<ProcessContainer> adopted) {
        Set<String> accounted = new HashSet<>(held);
        adopted.forEach(c -> accounted.add(InstanceDir.safeName(c.spec().instanceGuid())));
        for (String name : cgroups.instanceNames(cellName)) {
            if (accounted.contains(name)) {
                continue;
            }
            InstanceCgroup orphan = cgroups.instance(cellName, name);
            log.warn("adopt-cgroup-orphan cell={} cgroup={} processes={} (no pid file: killed and removed)", cellName,
                    name, live(orphan).size());
            killAndRemove(orphan);
        }
    }

    /** Kills what is left in a cgroup, waits (briefly) for the kills to land, and removes it. */
    private void killAndRemove(InstanceCgroup cgroup) {
        long deadline = System.nanoTime() + KILL_WAIT.toNanos();
        while (!live(cgroup).isEmpty() && System.nanoTime() < deadline) {
            cgroup.kill();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        if (!cgroup.remove()) {
            log.warn("adopt-cgroup-not-removed dirs={}", cgroup.dirs());
        }
    }

    private static List<ProcStat> live(InstanceCgroup cgroup) {
        return ProcTable.alive(cgroup.pids());
    }
}
