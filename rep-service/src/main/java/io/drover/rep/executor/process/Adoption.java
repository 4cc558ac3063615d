package io.drover.rep.executor.process;

import io.drover.rep.executor.Container;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-adopts what a previous run of the rep left in a cell's directory. A pid file's tree is adopted when its leader
 * is alive with the recorded start time (a reused pid has another), or, for a daemonised container, when members of
 * its session are. Everything else is dead: leftovers of its tree are killed and its directory removed.
 */
final class Adoption {

    private static final Logger log = LoggerFactory.getLogger(Adoption.class);

    private final ProcessRuntime runtime;

    private final Path cellDir;

    private final Set<String> held;

    Adoption(ProcessRuntime runtime, Path cellDir, Set<String> heldInstanceGuids) {
        this.runtime = runtime;
        this.cellDir = cellDir;
        this.held = heldInstanceGuids.stream().map(InstanceDir::safeName).collect(Collectors.toSet());
    }

    List<ProcessContainer> run(Consumer<Container> publisher) {
        if (!Files.isDirectory(cellDir)) {
            return List.of();
        }
        ProcTable table = ProcTable.read();
        List<ProcessContainer> adopted = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(cellDir)) {
            dirs.filter(Files::isDirectory).filter(d -> !held.contains(d.getFileName().toString()))
                    .map(InstanceDir::new).forEach(dir -> adoptOne(dir, table, publisher).ifPresent(adopted::add));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
        ProcessIdentity leader = new ProcessIdentity(file.pid(), file.startTime());
        List<ProcStat> members = table.members(new TreeRoots(leader, file.session(), Set.of()));
        boolean leaderAlive = table.get(file.pid())
                .filter(s -> s.startTime() == file.startTime() && s.alive()).isPresent();
        if (!leaderAlive && !(file.daemonised() && !members.isEmpty())) {
            log.info("adopt-container-gone instance_guid={} pid={} leftovers={}", file.instanceGuid(), file.pid(),
                    members.size());
            Signals.kill(members);
            dir.delete();
            return Optional.empty();
        }
        ProcessContainer container = ProcessContainer.adopt(file, dir, publisher,
                new InstanceJournal(dir, runtime.clock(), runtime.properties().logCap().toBytes()));
        if (!runtime.ports().reserveExisting(container.hostPorts())) {
            log.warn("adopt-container-port-clash instance_guid={} ports={}", file.instanceGuid(), file.ports());
        }
        log.info("adopt-container instance_guid={} process_guid={} index={} pid={} running={}", file.instanceGuid(),
                file.processGuid(), file.index(), file.pid(), file.running());
        return Optional.of(container);
    }
}
