package io.drover.auctioneer.round;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.auctioneer.scheduling.Work;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.task.TaskReads;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TaskAuctionTest {

    @Test
    void aTaskIsWorkKeyedByItsGuidWithWhatItNeedsAndNoSiblingsToSpreadFrom() {
        Work work = TaskAuction.work(new TaskReads.Placeable("t1", 64, 32, "preloaded:host", Set.of("ssd")));

        assertThat(work).isEqualTo(new Work(ActualLrpKey.of("t1", 0), 64, 32, "preloaded:host", Set.of("ssd"), false));
        assertThat(work.spread()).isFalse();
    }
}
