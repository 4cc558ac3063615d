package io.drover.rep.executor;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Runs the containers of one cell. Every method returns quickly: starting, health checking, stopping and crash
 * detection happen in the background and are reported to the {@link ContainerListener}s as {@link ContainerEvent}s.
 * An executor never touches the database or Kafka; the rep turns its events into lifecycle operations.
 */
public interface Executor {

    /**
     * Starts a container for this incarnation; returns at once. The container reports RUNNING when it is healthy
     * (at once when the spec has no checks and no monitor), CRASHED when it exits or fails its checks.
     *
     * @throws InsufficientResourcesException when the cell cannot fit it (the rep then fails the placement)
     */
    void run(ContainerSpec spec);

    /**
     * Stops the container: SIGTERM (or the simulated equivalent) to the whole tree, waits up to {@code grace}, then
     * kills. Reports STOPPED once nothing of it is left. Stopping an unknown or already stopped container is a no-op.
     */
    void stop(String instanceGuid, Duration grace);

    /** The containers this executor holds now (starting, running, or crashed but not yet forgotten). */
    List<Container> containers();

    Optional<Container> container(String instanceGuid);

    /** Forgets a crashed or stopped container once the rep has recorded what happened to it. */
    void forget(String instanceGuid);

    void addListener(ContainerListener listener);

    /** The log of a container this executor holds (until it is forgotten). */
    Optional<InstanceLog> log(String instanceGuid);

    /**
     * Picks up containers left running by a previous run of this rep (process executor: pid files) so healthy
     * workloads survive a rep restart; returns what it adopted.
     */
    List<Container> adopt();

    /**
     * The first {@code maxBytes} of a file in a container's working directory, as UTF-8 text (a task's result file),
     * read before the container is forgotten. Empty when the container or the file does not exist; a path that would
     * leave the working directory is refused ({@link IllegalArgumentException}). Executors without files have none.
     */
    default Optional<String> readFile(String instanceGuid, String path, int maxBytes) {
        return Optional.empty();
    }

    /**
     * Measures what each live container uses now (CPU, memory, disk). Called every few seconds from one thread; the
     * first call for a container reports its CPU time averaged since its start.
     */
    default List<ContainerUsage> usage() {
        return List.of();
    }

    /**
     * Whether this executor's containers keep the figures of their first measurement while they run (a simulated
     * container's are fixed for its life): a sampling round then asks it only what started and ended since the last
     * round ({@link #usageChanges()}), so the round costs what changed, not what the cell holds. Executors that measure
     * real processes say no: their figures move.
     */
    default boolean steadyUsage() {
        return false;
    }

    /**
     * For an executor with {@link #steadyUsage()}: the containers that began running and those that stopped since the
     * previous call, from one thread; the first call gives every running container and starts the account (an
     * executor nobody asks keeps none).
     */
    default UsageChanges usageChanges() {
        throw new UnsupportedOperationException("this executor measures its containers: ask usage()");
    }

    /** Releases the executor's threads; leaves processes running unless they were stopped. */
    void close();
}
