package io.drover.model.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;

/** What an election tells its owner when it cannot reach the lock (the converger's grace listens: docs/ha.md). */
class LeaderElectionTest {

    @Test
    void aTryToTakeTheLockThatThrowsIsHandedToOnTryFailed() {
        RuntimeException away = new DataAccessResourceFailureException("database away");
        LeaderLock unreachable = new LeaderLock(null, Clock.systemUTC()) {
            @Override
            public boolean tryAcquire(String name, String holder, Duration ttl) {
                throw away;
            }
        };
        List<RuntimeException> failed = new CopyOnWriteArrayList<>();
        LeaderElection election = new LeaderElection(unreachable, "test", Duration.ofMillis(150), () -> {
        }, () -> {
        }, failed::add);

        election.start();
        try {
            await().atMost(Duration.ofSeconds(5)).until(() -> failed.size() >= 2);
        } finally {
            election.stop();
        }
        assertThat(failed).containsOnly(away);
        assertThat(election.isLeader()).isFalse();
    }
}
