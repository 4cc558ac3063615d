package io.drover.verify.check;

/** The names of the faults a run injects, as its history records them ({@code Entry.Fault.kind}). */
public final class FaultKinds {

    /** A rep gone without a word, its workloads left running (as after SIGKILL of the rep alone), then back. */
    public static final String REP_KILL = "rep-kill";
    /** A cell drained (SPEC 8.5) and its rep started again once empty. */
    public static final String DRAIN = "drain";
    /** PostgreSQL stopped and started again on the same data. */
    public static final String DATABASE = "database-restart";
    /** The Kafka broker stopped and started again on the same data. */
    public static final String KAFKA = "kafka-outage";
    /** Records dropped, duplicated and reordered at every consumer but the receptor's event feed. */
    public static final String MESSAGES = "message-faults";
    /** A workload process killed with SIGKILL. */
    public static final String WORKLOAD_KILL = "workload-kill";
    /**
     * A leader frozen past its lock's TTL, then thawed: SIGSTOP and SIGCONT (separate JVMs), {@code docker pause} and
     * {@code unpause} (compose).
     */
    public static final String LEADER_FREEZE = "leader-freeze";
    /**
     * A container cut off the cluster's network ({@code docker network disconnect}) and connected again: a rep (its
     * target is its cell, away meanwhile) or the converger's leader (compose only).
     */
    public static final String PARTITION = "partition";

    private FaultKinds() {
    }
}
