/**
 * The container executor: the process executor with every instance and task step in a container of an OCI runtime
 * ({@code runc}, or {@code crun}), from a bundle per instance: its root filesystem (the host's system directories, a
 * preloaded tree, or an OCI image layout) under an overlay whose writable layer is the instance's, its own pid, mount,
 * uts, ipc and network namespaces, and its cgroup limits set by the runtime (docs/isolation.md).
 */
package io.drover.rep.executor.container;
