package io.drover.rep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.InstanceOwner;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerState;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** SPEC 8.4: the sync loop repairs the database from the cell's containers, never the other way round. */
class SyncIT extends SingleCellSupport {

    @Test
    void aRecordDeletedUnderARunningContainerIsRecreatedAndTheContainerKeepsRunning() {
        String guid = lrps.desire("vanish", 1, 64);
        lrps.place(guid, CELL, 0);
        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.find(guid, 0)
                .filter(a -> a.state() == ActualLrpState.RUNNING).isPresent());
        String instanceGuid = lrps.find(guid, 0).orElseThrow().instanceGuid();

        // Fault injection only: a record lost behind the lifecycle's back (no lifecycle operation deletes a RUNNING one).
        jdbc.update("DELETE FROM actual_lrps WHERE process_guid = ? AND instance_index = 0", guid);

        await().atMost(Duration.ofSeconds(10)).until(() -> lrps.find(guid, 0).isPresent());
        ActualLrp recreated = lrps.find(guid, 0).orElseThrow();
        assertThat(recreated.state()).isEqualTo(ActualLrpState.RUNNING);
        assertThat(recreated.instanceGuid()).isEqualTo(instanceGuid);
        assertThat(recreated.cellId()).isEqualTo(CELL);
        assertThat(executor().container(instanceGuid)).get().extracting(Container::state)
                .isEqualTo(ContainerState.RUNNING);
    }

    @Test
    void aRecordClaimedHereWithNoContainerIsRemoved() {
        String guid = lrps.desire("ghost", 1, 64);
        actual.claim(ActualLrpKey.of(guid, 0), InstanceOwner.of("no-such-container", CELL), Actor.cell(CELL));

        await().atMost(Duration.ofSeconds(10)).until(() -> lrps.find(guid, 0).isEmpty());
    }
}
