package io.drover.model.cell;

/**
 * How a cell isolates and measures what it runs, as its rep registers it. With cgroups the kernel enforces each
 * instance's memory limit, CPU weight and process count; with SAMPLING the rep only watches the process table and kills
 * a tree over its limits; SIMULATED cells run no processes; CONTAINERS cells run each instance in a container of an
 * OCI runtime (its own pid, mount, uts, ipc and network namespaces, root filesystem and cgroup). UNKNOWN is a
 * registration that does not say.
 */
public enum CellIsolation {
    CGROUPS_V1, CGROUPS_V2, SAMPLING, SIMULATED, CONTAINERS, UNKNOWN
}
