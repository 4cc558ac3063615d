package io.drover.rep.executor.process;

import io.drover.model.json.Json;
import io.drover.model.lrp.DefinitionId;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.NetInfo.PortMapping;
import io.drover.rep.executor.process.cgroup.InstanceCgroup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a later run of the rep needs to re-adopt a container: the leader's pid and start time (field 22 of
 * {@code /proc/<pid>/stat}; a reused pid has another), its session, the instance's identity, ports and definition
 * (to resume memory, pid and health watching), whether it was already running or daemonised, its cgroup's
 * directories by controller (none in sampling mode), and which definition it runs (the LRP's life and version; absent
 * from the files of a rep that predates it). Written atomically.
 */
record PidFile(long pid, long startTime, long session, String cellId, String processGuid, int index,
        String instanceGuid, String domain, String address, List<PortMapping> ports, boolean running,
        boolean daemonised, long startedAtMillis, DesiredLrpDefinition definition, Map<String, String> cgroup,
        DefinitionId runs) {

    /** How a cgroup's directories are kept in the file; null for none. */
    static Map<String, String> dirsOf(InstanceCgroup cgroup) {
        if (cgroup == null) {
            return null;
        }
        Map<String, String> dirs = new LinkedHashMap<>();
        cgroup.dirs().forEach((controller, path) -> dirs.put(controller, path.toString()));
        return dirs;
    }

    /** The cgroup's directories, empty for a container that has none. */
    Map<String, Path> cgroupDirs() {
        Map<String, Path> dirs = new LinkedHashMap<>();
        if (cgroup != null) {
            cgroup.forEach((controller, dir) -> dirs.put(controller, Path.of(dir)));
        }
        return dirs;
    }

    void write(Path file) {
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.writeString(temp, Json.write(this));
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Empty when the file is missing or unreadable (a rep killed mid-write leaves only the .tmp). */
    static Optional<PidFile> read(Path file) {
        try {
            return Optional.of(Json.read(Files.readString(file), PidFile.class));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
