package io.drover.auctioneer.leadership;

import io.drover.model.leader.LeaderElection;
import io.drover.model.leader.LeaderLock;

/**
 * Runs first inside every transaction a round writes in: the round goes on only while this auctioneer is the
 * {@code auctioneer} lock's holder of record, and the lock row stays locked (FOR SHARE) until the transaction ends, so
 * no standby takes over mid-write. A leader paused between deciding and committing (GC, a stalled VM) whose lock a
 * standby took meanwhile thus writes nothing of its stale decision, even before its own election has noticed the loss.
 */
public final class LeadershipFence implements Runnable {

    private final LeaderLock lock;
    private final LeaderElection election;

    LeadershipFence(LeaderLock lock, LeaderElection election) {
        this.lock = lock;
        this.election = election;
    }

    @Override
    public void run() {
        if (!lock.isHeld(LeadershipConfiguration.LOCK, election.holder())) {
            throw new LeadershipLostException(LeadershipConfiguration.LOCK, election.holder());
        }
    }
}
