package io.drover.verify.fault;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * What the fault injector may do to a cluster, beside its public API. Each cluster says which faults it supports; the
 * rest are skipped, and the run's summary says so.
 */
public interface ClusterControl {

    /** The faults this cluster can inject (names of {@link io.drover.verify.check.FaultKinds}). */
    Set<String> supported();

    /** The cell ids, one per rep, in the order {@link #killRep} and {@link #restartRep} number them. */
    List<String> cells();

    /** The rep of cell {@code i} goes without a word; its workloads keep running (as after SIGKILL of the rep). */
    void killRep(int i);

    void restartRep(int i);

    void stopDatabase();

    void startDatabase();

    void stopBroker();

    void startBroker();

    /** Freezes the current leader of {@code service} (SIGSTOP); false when there is none to freeze. */
    default boolean freezeLeader(String service) {
        return false;
    }

    default void thawLeader(String service) {
    }

    /**
     * Cuts {@code target} off the cluster's network: a cell's rep (its workloads keep running), or the leader of a
     * service ({@code converger-service}); false when there is none to cut.
     */
    default boolean partition(String target) {
        return false;
    }

    default void reconnect(String target) {
    }

    /**
     * Whether a heal may take long (a container that must start and pass its health check, which another fault, a
     * broker away, may hold up): the injector then heals each fault on a thread of its own.
     */
    default boolean slowHeals() {
        return false;
    }

    /** How long each fault lasts in this cluster, given its presence TTL. */
    default FaultPlan.Lengths faultLengths(Duration presenceTtl) {
        return FaultPlan.Lengths.local(presenceTtl);
    }

    /**
     * What a run that did not converge leaves to explain itself, taken at that moment (before the run's clean-up): the
     * cluster's threads and its database's sessions and waiting locks, as text; empty where this cluster cannot tell.
     * A failure in CI is seen only through what the run printed, so a stuck or failing loop must show here.
     */
    default String diagnostics() {
        return "";
    }
}
