package io.drover.converger.pass;

import io.drover.model.leader.LeaderElection;
import io.drover.model.leader.LeaderLock;

/**
 * Runs inside every transaction a pass writes in: it goes on only while this converger is the leader lock's holder of
 * record, and holds the lock row (FOR SHARE) until the transaction ends, so no standby can take over mid-write. A leader paused between its snapshot and its plan (GC,
 * a stalled VM) whose lock a standby took meanwhile thus writes nothing from its stale plan, even before its own
 * election thread has noticed the loss.
 */
public class LeadershipFence implements Runnable {

    private final LeaderLock lock;
    private final LeaderElection election;
    private final String name;

    public LeadershipFence(LeaderLock lock, LeaderElection election, String name) {
        this.lock = lock;
        this.election = election;
        this.name = name;
    }

    @Override
    public void run() {
        if (!lock.isHeld(name, election.holder())) {
            throw new LeadershipLostException(name, election.holder());
        }
    }
}
