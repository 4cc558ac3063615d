package io.drover.receptor.ui;

import io.drover.model.lrp.ActualLrpState;
import io.drover.model.read.DesiredLrpRow;
import io.drover.model.read.Tallies;

/** One desired LRP's row on the LRPs page: desired and actual counts, and a placement error to show in red. */
public record LrpLine(String processGuid, String domain, int desired, long running, long starting, long crashed,
        String placementError) {

    static LrpLine of(DesiredLrpRow row, Tallies.ProcessTally tally) {
        if (tally == null) {
            return new LrpLine(row.processGuid(), row.domain(), row.instances(), 0, 0, 0, null);
        }
        long starting = tally.byState().get(ActualLrpState.UNCLAIMED) + tally.byState().get(ActualLrpState.CLAIMED);
        return new LrpLine(row.processGuid(), row.domain(), row.instances(),
                tally.byState().get(ActualLrpState.RUNNING), starting, tally.byState().get(ActualLrpState.CRASHED),
                tally.placementError());
    }
}
