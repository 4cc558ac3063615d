package io.drover.converger;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The converger's settings ({@code drover.converger.*}).
 *
 * @param interval a pass runs at least this often
 * @param leaderTtl the leader lock's TTL: a standby takes over at most this long after the leader vanished
 * @param cellWatchInterval how often the leader looks for cells whose presence just expired, and for tables that
 *     outgrew their planner statistics
 * @param debounce the pause between a cell loss (or an over-limit pass) and the pass that reacts to it
 * @param desiredChangeDelay the pause between a desired LRP change and the pass it triggers; the changes of that
 *     pause share one pass, so a burst of desires costs a pass every few seconds, not one per desire
 * @param staleUnclaimedAfter rule 3: an UNCLAIMED instance whose request the pipeline passed longer ago than this
 *     is auctioned again (docs/converger.md)
 * @param maxUnclaimedWait rule 3: an UNCLAIMED instance untouched for longer is auctioned again however far the
 *     pipeline got
 * @param stageLagTolerance rule 3: a pipeline stage less far behind than this counts as caught up (the age of its
 *     report, not a queue: reps report with their heartbeats)
 * @param maxLostCellUnclaims rule 2: at most this many unclaims per pass (the auctioneer's batch)
 * @param maxStaleUnclaims rule 3: at most this many re-auctions per pass
 * @param batchSize instances per lifecycle call (one transaction each)
 * @param gcInterval how often garbage collection (rule 7) runs
 * @param eventRetention {@code lrp_events} older than this are deleted
 * @param sentOutboxRetention outbox rows sent longer ago than this are deleted
 * @param gcBatchSize rows per delete statement
 * @param deadCellRetention the presence rows of cells expired longer ago than this are deleted
 * @param cellGraceOnElection for this long after its election, the leader does not replace the work of cells that died
 *     while no converger judged (the reps' presence TTL: time to beat again); nor after it reached the database again
 *     when it could not, the work of cells whose presence ran out meanwhile (docs/ha.md); see {@code plan.ElectionGrace}
 * @param tallyFoldInterval how often the leader folds the kept instance counts ({@code Tallies.fold}): what a
 *     dashboard's count reads is the rows appended in about this long
 */
@ConfigurationProperties("drover.converger")
public record ConvergerProperties(@DefaultValue("30s") Duration interval, @DefaultValue("15s") Duration leaderTtl,
        @DefaultValue("1s") Duration cellWatchInterval, @DefaultValue("250ms") Duration debounce,
        @DefaultValue("5s") Duration desiredChangeDelay, @DefaultValue("30s") Duration staleUnclaimedAfter,
        @DefaultValue("5m") Duration maxUnclaimedWait, @DefaultValue("6s") Duration stageLagTolerance,
        @DefaultValue("5000") int maxLostCellUnclaims, @DefaultValue("500") int maxStaleUnclaims,
        @DefaultValue("500") int batchSize,
        @DefaultValue("5m") Duration gcInterval, @DefaultValue("7d") Duration eventRetention,
        @DefaultValue("1h") Duration sentOutboxRetention, @DefaultValue("10000") int gcBatchSize,
        @DefaultValue("10m") Duration deadCellRetention, @DefaultValue("15s") Duration cellGraceOnElection,
        @DefaultValue("10s") Duration tallyFoldInterval) {
}
