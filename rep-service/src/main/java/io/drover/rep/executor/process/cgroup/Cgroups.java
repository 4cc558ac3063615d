package io.drover.rep.executor.process.cgroup;

import io.drover.model.cell.CellIsolation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The rep's cgroup hierarchy: {@code <own cgroup>/<root>/<cell>/<instance>} in each controller, under the cgroup the
 * rep itself runs in (so its own limits still bound everything it starts), one cgroup per instance.
 * {@link CgroupDetection} finds out whether the machine allows it.
 */
public final class Cgroups {

    private final CellIsolation version;

    private final Map<String, Path> bases;

    Cgroups(CellIsolation version, Map<String, Path> bases) {
        this.version = version;
        this.bases = Map.copyOf(bases);
    }

    /** {@link CellIsolation#CGROUPS_V1} or {@link CellIsolation#CGROUPS_V2}. */
    public CellIsolation version() {
        return version;
    }

    /** The base directory of each controller ({@code unified} for v2): the rep's own cgroup plus the root name. */
    public Map<String, Path> bases() {
        return bases;
    }

    /** The cgroup of one instance of one cell; made by {@link InstanceCgroup#create}. Names must be path-safe. */
    public InstanceCgroup instance(String cell, String instance) {
        Map<String, Path> dirs = new LinkedHashMap<>();
        bases.forEach((controller, base) -> dirs.put(controller, base.resolve(cell).resolve(instance)));
        return at(dirs);
    }

    /** An instance cgroup by its directories, as a pid file recorded them (a restarted rep may live elsewhere). */
    public InstanceCgroup at(Map<String, Path> dirs) {
        if (version == CellIsolation.CGROUPS_V2) {
            return new V2Cgroup(dirs.get(V2Cgroup.KEY), bases.get(V2Cgroup.KEY));
        }
        return new V1Cgroup(dirs);
    }

    /** The names of the instance cgroups a cell has now, whatever made them. */
    public List<String> instanceNames(String cell) {
        Path cellDir = firstBase().resolve(cell);
        if (!Files.isDirectory(cellDir)) {
            return List.of();
        }
        try (Stream<Path> children = Files.list(cellDir)) {
            return children.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Removes a cell's cgroups once no instance cgroup is left in them; true when they are gone. */
    public boolean removeCellIfEmpty(String cell) {
        if (!instanceNames(cell).isEmpty()) {
            return false;
        }
        return CgroupFiles.removeAll(bases.values().stream().map(b -> b.resolve(cell)).distinct().toList());
    }

    /** Removes the rep's base directories once no cell is left in them (another rep's cells keep them). */
    public boolean removeIfEmpty() {
        return CgroupFiles.removeAll(bases.values().stream().distinct().toList());
    }

    private Path firstBase() {
        return bases.containsKey("memory") ? bases.get("memory") : bases.values().iterator().next();
    }
}
