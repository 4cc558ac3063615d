package io.drover.converger.plan;

import io.drover.converger.plan.ConvergenceSnapshot.Actual;
import io.drover.converger.plan.ConvergenceSnapshot.Desired;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Builds the snapshot a plan test starts from: {@code given().desired("a", 3).running("a", 0, "cell-1")...}. */
final class Given {

    static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    static final String DOMAIN = "cf-apps";

    private final List<Desired> desired = new ArrayList<>();
    private final List<Actual> actuals = new ArrayList<>();
    private final Set<String> liveCells = new HashSet<>();
    private final Set<String> freshDomains = new HashSet<>();
    private final Map<String, Instant> placementsTakenUp = new HashMap<>();
    private Instant relayed = NOW;
    private Instant auctioned;
    private final Map<String, Instant> expiredCells = new HashMap<>();
    private ElectionGrace grace = ElectionGrace.NONE;
    private final Set<String> wholeLrps = new HashSet<>();

    static Given given() {
        return new Given();
    }

    static ActualLrpKey key(String processGuid, int index) {
        return ActualLrpKey.of(processGuid, index);
    }

    static Instant ago(int seconds) {
        return NOW.minus(Duration.ofSeconds(seconds));
    }

    Given desired(String processGuid, int instances) {
        desired.add(new Desired(processGuid, DOMAIN, instances));
        return this;
    }

    Given liveCells(String... cells) {
        liveCells.addAll(List.of(cells));
        return this;
    }

    /** {@code cell} has a presence row that expired at {@code at}. */
    Given expiredCell(String cell, Instant at) {
        expiredCells.put(cell, at);
        return this;
    }

    /** This leader was elected at {@code electedAt}, the last pass before it finished at {@code judgedThrough}. */
    Given electedWithGrace(Instant judgedThrough, Instant electedAt, Duration grace) {
        this.grace = ElectionGrace.of(judgedThrough, electedAt, grace);
        return this;
    }

    /** This leader reached the database again at {@code backAt}; its last pass before judged at {@code judgedThrough}. */
    Given backFromOutageWithGrace(Instant judgedThrough, Instant backAt, Duration grace) {
        this.grace = ElectionGrace.afterOutage(judgedThrough, backAt, grace);
        return this;
    }

    /** The relay has sent everything written before {@code through} (by default: everything). */
    Given relayedThrough(Instant through) {
        relayed = through;
        return this;
    }

    /** The auctioneer reported it has handled every start request made before {@code through}. */
    Given auctionedThrough(Instant through) {
        auctioned = through;
        return this;
    }

    /** The rep of {@code cell} reported it has taken up every placement made on it before {@code through}. */
    Given placementsTakenUpThrough(String cell, Instant through) {
        placementsTakenUp.put(cell, through);
        return this;
    }

    /** The snapshot knows {@code processGuid} whole (every index present) and lists only some of its instances. */
    Given whole(String processGuid) {
        wholeLrps.add(processGuid);
        return this;
    }

    Given freshDomain() {
        freshDomains.add(DOMAIN);
        return this;
    }

    Given unclaimed(String processGuid, int index, Instant since) {
        return actual(processGuid, index, ActualLrpState.UNCLAIMED, null, 0, since, null, null);
    }

    Given placed(String processGuid, int index, Instant since, String cell, Instant placedAt) {
        return actual(processGuid, index, ActualLrpState.UNCLAIMED, null, 0, since, cell, placedAt);
    }

    Given claimed(String processGuid, int index, String cell) {
        return actual(processGuid, index, ActualLrpState.CLAIMED, cell, 0, ago(5), null, null);
    }

    Given running(String processGuid, int index, String cell) {
        return actual(processGuid, index, ActualLrpState.RUNNING, cell, 0, ago(600), null, null);
    }

    Given crashed(String processGuid, int index, int crashCount, Instant since) {
        return actual(processGuid, index, ActualLrpState.CRASHED, null, crashCount, since, null, null);
    }

    private Given actual(String processGuid, int index, ActualLrpState state, String cell, int crashCount,
            Instant since, String placedCell, Instant placedAt) {
        actuals.add(new Actual(processGuid, index, DOMAIN, state, cell, crashCount, since, placedCell, placedAt));
        return this;
    }

    ConvergenceSnapshot snapshot() {
        return new ConvergenceSnapshot(NOW, desired, actuals, liveCells, freshDomains,
                new ConvergenceSnapshot.Pipeline(relayed, auctioned, placementsTakenUp), expiredCells, grace,
                List.of(), wholeLrps, actuals.size());
    }
}
