package io.drover.rep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SPEC 8.3 through the real topic and database: placement → claim → run → start; crash; stop request. */
class CellWorkIT extends SingleCellSupport {

    @Test
    void anAuctionResultBecomesARunningContainerAndARunningRecordWithItsAddress() {
        String guid = lrps.desire("work", 2, 128);

        lrps.place(guid, CELL, 0, 1);

        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.all(guid).stream()
                .allMatch(a -> a.state() == ActualLrpState.RUNNING));
        for (ActualLrp a : lrps.all(guid)) {
            assertThat(a.cellId()).isEqualTo(CELL);
            assertThat(a.netInfo().address()).isEqualTo("127.0.0.1");
            assertThat(a.netInfo().ports()).singleElement().satisfies(p -> {
                assertThat(p.containerPort()).isEqualTo(8080);
                assertThat(p.hostPort()).isBetween(61000, 65535);
            });
            assertThat(executor().container(a.instanceGuid())).get().extracting(Container::state)
                    .isEqualTo(ContainerState.RUNNING);
        }
        assertThat(lrps.all(guid)).extracting(a -> a.netInfo().ports().get(0).hostPort()).doesNotHaveDuplicates();
    }

    @Test
    void aCrashIsRecordedAndTheInstanceIsAuctionedAgainAtOnce() {
        String guid = lrps.desire("crash", 1, 128);
        lrps.place(guid, CELL, 0);
        ActualLrp running = awaitRunning(guid);

        executor().crash(running.instanceGuid(), "exited with status 3");

        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.find(guid, 0).orElseThrow().state()
                == ActualLrpState.UNCLAIMED);
        ActualLrp crashed = lrps.find(guid, 0).orElseThrow();
        assertThat(crashed.crashCount()).isEqualTo(1);
        assertThat(crashed.crashReason()).isEqualTo("exited with status 3");
        assertThat(crashed.instanceGuid()).isNull();
        await().atMost(Duration.ofSeconds(5)).until(() -> executor().container(running.instanceGuid()).isEmpty());
    }

    @Test
    void aStopRequestStopsTheContainerAndRemovesTheRecord() {
        String guid = lrps.desire("stop", 1, 128);
        lrps.place(guid, CELL, 0);
        ActualLrp running = awaitRunning(guid);

        actual.retire(List.of(ActualLrpKey.of(guid, 0)), "scaled down", Lrps.TEST);

        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.find(guid, 0).isEmpty());
        assertThat(executor().container(running.instanceGuid())).isEmpty();
    }

    @Test
    void aPlacementThatDoesNotFitIsSentBackWithTheReason() {
        String guid = lrps.desire("too-big", 1, 8192);

        lrps.place(guid, CELL, 0);

        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.find(guid, 0).orElseThrow().placementError() != null);
        ActualLrp refused = lrps.find(guid, 0).orElseThrow();
        assertThat(refused.placementError()).isEqualTo("insufficient resources: memory");
        assertThat(refused.state()).isEqualTo(ActualLrpState.UNCLAIMED);
        assertThat(refused.placedCellId()).isNull();
    }

    private ActualLrp awaitRunning(String guid) {
        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.find(guid, 0)
                .filter(a -> a.state() == ActualLrpState.RUNNING).isPresent());
        return lrps.find(guid, 0).orElseThrow();
    }
}
