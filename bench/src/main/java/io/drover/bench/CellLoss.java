package io.drover.bench;

import io.drover.cluster.LocalCluster;
import java.time.Duration;
import java.util.List;

/**
 * P3: one simulated cell dies as a machine would (no heartbeat, no goodbye): the victim is hosted by a rep of its own
 * (shutdown mode KEEP), which is stopped; time until every instance it held is RUNNING on another cell. Meanwhile every
 * other cell keeps beating: what their heartbeats cost per second (the reps' heartbeat threads, and PostgreSQL's time
 * in the heartbeat statement) is reported with it.
 */
final class CellLoss {

    /** The heartbeat statement of {@code CellPresence}: it takes the cells' presence locks and writes their rows. */
    private static final String HEARTBEATS = "FROM pg_stat_statements WHERE query LIKE '%INSERT INTO leader_locks%' "
            + "AND query LIKE '%INSERT INTO cells%'";

    private final LocalCluster cluster;
    private final Database db;
    private final int victimRep;

    CellLoss(LocalCluster cluster, Database db, int victimRep) {
        this.cluster = cluster;
        this.db = db;
        this.victimRep = victimRep;
    }

    Figure run(Duration presenceTtl, Duration timeout) throws InterruptedException {
        String victim = cluster.cellIds(victimRep).get(0);
        // The victim's instances, by key: polling them is a hundred index look-ups, where counting every RUNNING row
        // of a million every 100 ms took the machine's PostgreSQL for itself.
        List<List<String>> held = db.rows("SELECT process_guid, instance_index::text FROM actual_lrps WHERE cell_id = '"
                + victim.replace("'", "''") + "'");
        Object[] guids = held.stream().map(r -> r.get(0)).toArray();
        Object[] indexes = held.stream().map(r -> Integer.valueOf(r.get(1))).toArray();
        long cells = db.count("SELECT count(*) FROM cells WHERE expires_at > now()");
        double[] beatsBefore = db.doubles("SELECT coalesce(sum(total_exec_time), 0), coalesce(sum(calls), 0) "
                + HEARTBEATS);
        CpuAccount cpuBefore = CpuAccount.now();
        long start = System.nanoTime();
        cluster.stopCell(victimRep);
        long deadline = start + timeout.toNanos();
        boolean recovered = false;
        while (!recovered && System.nanoTime() < deadline) {
            Thread.sleep(100);
            recovered = db.count("SELECT count(*) FROM actual_lrps a JOIN unnest(?::text[], ?::int[]) AS k(g, i) "
                    + "ON a.process_guid = k.g AND a.instance_index = k.i WHERE a.state = 'RUNNING' "
                    + "AND a.cell_id <> ?", db.array("text", guids), db.array("int4", indexes), victim) == held.size();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        CpuAccount cpuAfter = CpuAccount.now();
        double[] beatsAfter = db.doubles("SELECT coalesce(sum(total_exec_time), 0), coalesce(sum(calls), 0) "
                + HEARTBEATS);
        double repHeartbeatMs = 1000 * cpuAfter.groupSeconds(cpuBefore, "rep-heartbeat");
        double statementMs = beatsAfter[0] - beatsBefore[0];
        double target = presenceTtl.toSeconds() + 5;
        return new Figure("P3 a cell holding %d instances dies".formatted(held.size()),
                recovered ? "all RUNNING elsewhere after %.1f s".formatted(seconds)
                        : "not recovered after %.0f s".formatted(seconds),
                "<= presence TTL + 5 s = %.0f s".formatted(target), recovered && seconds <= target,
                ("cell %s; presence TTL %d s, then converger rule 2, auction, claim, start; meanwhile %,d cells "
                        + "heartbeating cost %.1f ms of CPU per second in the reps' heartbeat threads and %.1f ms per "
                        + "second of PostgreSQL executor time in %,.0f heartbeat statements (%.1f ms each); %s")
                        .formatted(victim, presenceTtl.toSeconds(), cells, repHeartbeatMs / seconds,
                                statementMs / seconds, beatsAfter[1] - beatsBefore[1],
                                statementMs / Math.max(1, beatsAfter[1] - beatsBefore[1]), cpuAfter.since(cpuBefore)));
    }
}
