package io.drover.model.messaging;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * How far the start pipeline has got, for the converger's rule 3: an UNCLAIMED instance whose request a stage has not
 * reached yet is waiting in a queue, not lost (docs/converger.md, "Rule 3 follows the pipeline"). Each stage says
 * where it stands as a time: <em>through T</em> means every request made before T has been handled by it, or never
 * will be. The times are the writers' (a request's row and its record carry the time it was written, see
 * {@link OutboxRelay}), so one stage's position compares with an instance's {@code since} or {@code placed_at}.
 *
 * <ul>
 * <li>the relay: through the write time of the oldest outbox row it has not sent, or now when none waits;
 * <li>the auction: the auctioneer leader's start request reader ({@link TopicReader#through()}), reported here at
 * most once a {@code reportEvery};
 * <li>a cell's placements: reported by its rep with each heartbeat ({@code cells.placements_through}).
 * </ul>
 * A consumer's position is only worth what the relay gave it: a reader of these bounds each by the relay's.
 */
public class PipelineProgress {

    private static final Logger log = LoggerFactory.getLogger(PipelineProgress.class);

    /** The auctioneer's stage. */
    public static final String AUCTION = "auction";

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final Duration reportEvery;
    private Instant lastReport = Instant.MIN;
    private Instant lastReported;
    private boolean failing;

    public PipelineProgress(JdbcTemplate jdbc, Clock clock, Duration reportEvery) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.reportEvery = reportEvery;
    }

    /**
     * Records that {@code stage} is through {@code through} (null: it cannot say yet, nothing is written). Writes at
     * most once a {@code reportEvery}, and only when the position moved. A write that fails (the database is away) is
     * logged once per outage and never thrown: the next report writes again, and meanwhile rule 3 sees an older
     * position, which only makes it wait longer.
     */
    public synchronized void report(String stage, Instant through) {
        Instant now = clock.instant();
        if (through == null || through.equals(lastReported) || now.isBefore(lastReport.plus(reportEvery))) {
            return;
        }
        lastReport = now;
        try {
            jdbc.update("INSERT INTO pipeline_progress (stage, through, reported_at) VALUES (?, ?, ?) ON CONFLICT "
                    + "(stage) DO UPDATE SET through = EXCLUDED.through, reported_at = EXCLUDED.reported_at", stage,
                    Timestamp.from(through), Timestamp.from(now));
            lastReported = through;
            failing = false;
        } catch (RuntimeException e) {
            if (!failing) {
                log.warn("pipeline-progress-report-failed stage={} cause=\"{}\" (retrying)", stage, e.toString());
            }
            failing = true;
        }
    }

    /**
     * Where the relay stands at {@code now}: the write time of the oldest outbox row not sent yet, or {@code now} when
     * none waits. One index probe after the cursor.
     */
    public Instant relayedThrough(Instant now) {
        Timestamp oldest = jdbc.queryForObject(RelaySource.OUTBOX.oldestWaitingSql(), Timestamp.class);
        return oldest == null || oldest.toInstant().isAfter(now) ? now : oldest.toInstant();
    }

    /** What {@code stage} last reported; null when it never did. */
    public Instant reported(String stage) {
        return jdbc.query("SELECT through FROM pipeline_progress WHERE stage = ?",
                rs -> rs.next() ? rs.getTimestamp(1).toInstant() : null, stage);
    }
}
