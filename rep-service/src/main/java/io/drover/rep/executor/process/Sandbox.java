package io.drover.rep.executor.process;

import io.drover.model.lrp.NetInfo.PortMapping;
import io.drover.model.lrp.RunAction;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * Where an instance's processes run. {@link HostSandbox} runs them as host processes (today's process executor: the
 * host's filesystem, network and user); the container executor's sandbox runs each instance in a container of an OCI
 * runtime. Everything else (journal, health, tree watching through the instance's cgroup, stop, adoption) is the
 * process executor's, whichever sandbox starts the processes.
 */
public interface Sandbox {

    /** What a launched process is to its instance. */
    enum Role {
        /** The run action of a plain-run instance: its exit ends the instance. */
        MAIN,
        /** One {@code run} of a composite action (a task's step). */
        STEP,
        /** A monitor action, run beside the main process. */
        MONITOR
    }

    /**
     * A process started for an instance: {@code process} is the rep's child, whose exit status is the workload's;
     * {@code leaderPid} the host pid of the workload's first process (recorded in the pid file and looked for in the
     * instance's cgroup after a rep restart), which may differ from the child's pid when a runtime stands between.
     */
    record Launched(Process process, long leaderPid) {
    }

    /** Makes what the instance runs in before its first process (directory, cgroup, root filesystem, network). */
    void prepare(SandboxedInstance instance) throws IOException;

    Launched launch(SandboxedInstance instance, RunAction action, Map<String, String> env, Role role)
            throws IOException;

    /** A download has been written into the instance's app directory (by the rep, as the rep's user). */
    default void downloaded(SandboxedInstance instance) throws IOException {
    }

    /** A composite action has ended: whatever still holds the instance open (a runtime's idle init) may go. */
    default void actionsEnded(SandboxedInstance instance) {
    }

    /** A previous rep's instance is adopted: re-attach what lives in the rep (port forwarding). */
    default void adopted(SandboxedInstance instance) {
    }

    /** The instance's processes are gone: undo {@link #prepare} (mounts, network, runtime state). Idempotent. */
    default void release(SandboxedInstance instance) {
    }

    /** Where a tcp or http health check of a container port connects. */
    InetSocketAddress checkAddress(SandboxedInstance instance, PortMapping port);

    /**
     * The rep has recorded the instance's end and forgets it: what still held its files for reading (a task's result
     * file) may go, before its directory is deleted. Idempotent.
     */
    default void forgotten(SandboxedInstance instance) {
    }

    /** The rep stops: threads of the sandbox's own go; containers keep running for the next rep. */
    default void close() {
    }

    /** Variables Drover sets for this sandbox on top of the instance's environment (the port to listen on, ...). */
    default Map<String, String> environment(SandboxedInstance instance) {
        return Map.of();
    }
}
