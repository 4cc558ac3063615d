package io.drover.converger.pass;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.converger.plan.ElectionGrace;
import io.drover.test.MutableClock;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

/** When a leader's grace starts after it could not reach the database (docs/ha.md), and what it is judged through. */
class GraceOnElectionTest {

    private static final Instant START = Instant.parse("2026-12-03T10:00:00Z");
    private static final Duration GRACE = Duration.ofSeconds(15);

    private final MutableClock clock = new MutableClock(START);
    private final GraceOnElection grace = new GraceOnElection(null, clock, GRACE);

    @Test
    void theFirstPassAfterTheDatabaseWasAwayFreezesJudgedThroughTheLastCompletePass() {
        grace.judged(START);
        clock.advance(Duration.ofSeconds(2));
        grace.failed(unreachable());
        clock.advance(Duration.ofSeconds(30));
        Instant back = clock.instant();

        assertThat(grace.at(back)).isEqualTo(ElectionGrace.afterOutage(START, back, GRACE));
        clock.advance(Duration.ofSeconds(1));
        grace.judged(back);
        assertThat(grace.at(clock.instant())).as("the next pass keeps that grace")
                .isEqualTo(ElectionGrace.afterOutage(START, back, GRACE));
    }

    @Test
    void aFailureThatIsNotTheDatabasesStartsNoGrace() {
        grace.judged(START);
        grace.failed(new IllegalStateException("a bug"));

        assertThat(grace.at(START.plusSeconds(1))).isEqualTo(ElectionGrace.NONE);
    }

    @Test
    void aSecondOutageIsJudgedThroughThePassesOfTheFirstGrace() {
        grace.judged(START);
        grace.failed(unreachable());
        Instant firstBack = START.plusSeconds(20);
        grace.at(firstBack);
        grace.judged(firstBack);
        grace.failed(unreachable());
        Instant secondBack = START.plusSeconds(40);

        assertThat(grace.at(secondBack)).as("a cell the first grace's passes saw dead is not spared again")
                .isEqualTo(ElectionGrace.afterOutage(firstBack, secondBack, GRACE));
    }

    private static RuntimeException unreachable() {
        return new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection",
                new SQLException("Connection refused", "08001"));
    }
}
