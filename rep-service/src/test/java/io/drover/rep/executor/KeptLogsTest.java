package io.drover.rep.executor;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.test.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The last lines of gone containers: what is kept, for how long, and within which bytes. */
class KeptLogsTest {

    static final Set<LogSource> ALL = EnumSet.allOf(LogSource.class);

    final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
    final KeptLogs kept = new KeptLogs(8 * 10_000, Duration.ofHours(1), clock);

    @Test
    void theLastLinesOfAContainerAreServedByItsGuidAndFollowingThemEndsAtOnce() throws Exception {
        KeptLogs roomy = new KeptLogs(16 << 20, Duration.ofHours(1), clock);
        roomy.keep("cell-a", "guid-1", log(1_500, 0));

        InstanceLog log = roomy.find("cell-a", "guid-1").orElseThrow();
        assertThat(log.tail(2, ALL)).extracting(LogLine::text).containsExactly("line 1498", "line 1499");
        assertThat(log.tail(5_000, ALL)).as("the last 1,000").hasSize(KeptLogs.LINES);
        assertThat(log.tail(5, EnumSet.of(LogSource.STDERR))).isEmpty();
        try (LogFollower follower = log.follow(1, ALL, 10)) {
            assertThat(follower.poll(Duration.ZERO).text()).isEqualTo("line 1499");
            assertThat(follower.isDone()).isTrue();
        }
        assertThat(roomy.find("cell-b", "guid-1")).as("per cell").isEmpty();
    }

    @Test
    void aCellKeepsAtMostItsBytesTheOldestGoingFirst() {
        for (int i = 0; i < 20; i++) {
            kept.keep("cell-a", "guid-" + i, log(100, 10));
        }

        assertThat(kept.bytes("cell-a")).isLessThanOrEqualTo(8 * 10_000);
        assertThat(kept.find("cell-a", "guid-0")).isEmpty();
        assertThat(kept.find("cell-a", "guid-19")).isPresent();
    }

    @Test
    void oneContainerTakesAtMostAnEighthOfItsCell() {
        kept.keep("cell-a", "chatty", log(1_000, 100));

        assertThat(kept.bytes("cell-a")).isLessThanOrEqualTo(10_000);
        assertThat(kept.find("cell-a", "chatty").orElseThrow().tail(1, ALL)).extracting(LogLine::text)
                .containsExactly("line 999" + "x".repeat(92));
    }

    @Test
    void linesAreKeptForTheirTimeOnly() {
        kept.keep("cell-a", "guid-1", log(3, 10));
        clock.advance(Duration.ofMinutes(59));
        assertThat(kept.find("cell-a", "guid-1")).isPresent();

        clock.advance(Duration.ofMinutes(2));

        assertThat(kept.find("cell-a", "guid-1")).isEmpty();
        assertThat(kept.bytes("cell-a")).isZero();
    }

    /** A log of {@code lines} stdout lines of about {@code width} characters each. */
    private InstanceLog log(int lines, int width) {
        List<LogLine> all = IntStream.range(0, lines).mapToObj(i -> new LogLine(clock.instant(), LogSource.STDOUT,
                pad("line " + i, width))).toList();
        return new InstanceLog() {
            @Override
            public List<LogLine> tail(int count, Set<LogSource> sources) {
                return all.subList(Math.max(0, all.size() - count), all.size());
            }

            @Override
            public LogFollower follow(int count, Set<LogSource> sources, int buffer) {
                throw new UnsupportedOperationException();
            }
        };
    }

    private static String pad(String text, int width) {
        return width <= text.length() ? text : text + String.join("", Collections.nCopies(width - text.length(), "x"));
    }
}
