package io.drover.model.leader;

/**
 * The guard of every write a leader makes ({@code lifecycle.guardedBy(fence)}): run last inside each transaction,
 * just before it commits, it lets the transaction commit only while this instance is the holder of record of its
 * election's lock, and reads the lock row {@code FOR SHARE} ({@link LeaderLock#isHeld}), which holds it until the
 * transaction ends, so no standby can take the lock over before the writes are in. (Last, not first: the share lock
 * gives the transaction its id, and a lifecycle transaction must read what it changes before it has one; see
 * docs/architecture.md, "Keeping per-instance order in the event stream".) A leader paused between deciding and writing (GC, a stalled VM) whose lock a standby
 * took meanwhile thus writes nothing of its stale decision, even before its own election has noticed the loss. It runs
 * inside every transaction, not once before a batch of them, because only a check in the transaction holds the row:
 * checked outside, the lock could change hands between the check and the write.
 */
public final class LeadershipFence implements Runnable {

    private final LeaderLock lock;
    private final LeaderElection election;

    public LeadershipFence(LeaderLock lock, LeaderElection election) {
        this.lock = lock;
        this.election = election;
    }

    /** @throws LeadershipLostException unless this instance still holds the lock (the transaction then rolls back) */
    @Override
    public void run() {
        if (!lock.isHeld(election.name(), election.holder())) {
            throw new LeadershipLostException(election.name(), election.holder());
        }
    }
}
