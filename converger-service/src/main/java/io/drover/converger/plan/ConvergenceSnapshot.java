package io.drover.converger.plan;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Everything one convergence pass looks at, read in one consistent transaction: the desired instance counts, every
 * actual LRP (only the columns the rules need), the cells whose presence has not expired, the fresh domains and the
 * time of the pass.
 */
public record ConvergenceSnapshot(Instant now, List<Desired> desired, List<Actual> actuals, Set<String> liveCells,
        Set<String> freshDomains) {

    public ConvergenceSnapshot {
        desired = List.copyOf(desired);
        actuals = List.copyOf(actuals);
        liveCells = Set.copyOf(liveCells);
        freshDomains = Set.copyOf(freshDomains);
    }

    /** A desired LRP as convergence sees it: how many instances of it should exist. */
    public record Desired(String processGuid, String domain, int instances) {
    }

    /**
     * An actual LRP as convergence sees it. {@code since} is its last state change; {@code placedAt} the time an
     * auction placed it (UNCLAIMED only, null when no placement is in flight).
     */
    public record Actual(String processGuid, int index, String domain, ActualLrpState state, String cellId,
            int crashCount, Instant since, String placedCellId, Instant placedAt) {

        public ActualLrpKey key() {
            return ActualLrpKey.of(processGuid, index);
        }
    }
}
