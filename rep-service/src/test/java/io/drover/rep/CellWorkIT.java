package io.drover.rep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.DefinitionId;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.RunAction;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerState;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
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
        assertThat(logOf(running.instanceGuid())).as("the crashed instance's last lines outlive its container")
                .hasValueSatisfying(log -> assertThat(log.tail(100, java.util.EnumSet.allOf(
                        io.drover.rep.executor.LogSource.class))).isNotEmpty());
    }

    @Test
    void aStopRequestStopsTheContainerAndRemovesTheRecord() {
        String guid = lrps.desire("stop", 1, 128);
        lrps.place(guid, CELL, 0);
        ActualLrp running = awaitRunning(guid);

        actual.retire(List.of(ActualLrpKey.of(guid, 0)), "scaled down", Lrps.TEST);

        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.find(guid, 0).isEmpty());
        // the record goes once the container has stopped; the executor forgets the stopped container just after
        await().atMost(Duration.ofSeconds(10)).until(() -> executor().container(running.instanceGuid()).isEmpty());
    }

    @Test
    void aRunningInstanceAskedToStopServesOnForTheDeregistrationDelayBeforeItIsStopped() {
        String guid = lrps.desire("deregister", 1, 128);
        lrps.place(guid, CELL, 0);
        ActualLrp running = awaitRunning(guid);

        actual.retire(List.of(ActualLrpKey.of(guid, 0)), "scaled down", Lrps.TEST);

        // Routers take the instance out when the stop is asked; its process keeps answering a while longer.
        await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(2)).until(() -> executor()
                .container(running.instanceGuid()).map(c -> c.state() == ContainerState.RUNNING).orElse(false));
        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.find(guid, 0).isEmpty());
        // the record goes once the container has stopped; the executor forgets the stopped container just after
        await().atMost(Duration.ofSeconds(10)).until(() -> executor().container(running.instanceGuid()).isEmpty());
    }

    @Test
    void aPlacementThatDoesNotFitIsSentBackWithTheReason() {
        String guid = lrps.desire("too-big", 1, 8192);

        lrps.place(guid, CELL, 0);

        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.find(guid, 0).orElseThrow().placementError() != null);
        ActualLrp refused = lrps.find(guid, 0).orElseThrow();
        assertThat(refused.placementError()).isEqualTo("insufficient resources: memory");
        assertThat(refused.state()).isEqualTo(ActualLrpState.UNCLAIMED);
        assertThat(refused.placement().cellId()).isNull();
    }

    /**
     * Issue 35, defect 2: the rep kept definitions by (process guid, version) for a while, and a desired LRP deleted and
     * desired again starts at version 1 again, so the new life was started with the old life's action, env, ports and
     * limits. Placements name the life they are for, and the cell runs exactly that.
     */
    @Test
    void anLrpDeletedAndDesiredAgainRunsItsNewDefinition() {
        String guid = lrps.desire("relife", 1, 128);
        lrps.place(guid, CELL, 0);
        ActualLrp first = awaitRunning(guid);
        UUID firstLife = desired.snapshot(guid).orElseThrow().modificationTag().epoch();
        assertThat(executor().container(first.instanceGuid()).orElseThrow().runs())
                .isEqualTo(new DefinitionId(firstLife, 1));

        desired.remove(guid, Lrps.TEST);
        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.find(guid, 0).isEmpty());
        desired.desire(new DesiredLrpDefinition(guid, "d1", "preloaded:host", 1, new Action(new RunAction("sleep",
                List.of("2000"), null, null, null)), null, null, 0, null, List.of(9090), 256, 64, 0, 0, null, null,
                null, null, null), Lrps.TEST);
        UUID secondLife = desired.snapshot(guid).orElseThrow().modificationTag().epoch();
        lrps.place(guid, CELL, 0);

        ActualLrp second = awaitRunning(guid);
        assertThat(executor().container(second.instanceGuid()).orElseThrow()).satisfies(c -> {
            assertThat(c.runs()).isEqualTo(new DefinitionId(secondLife, 1));
            assertThat(c.netInfo().ports()).singleElement().extracting(p -> p.containerPort()).isEqualTo(9090);
        });
    }

    private ActualLrp awaitRunning(String guid) {
        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.find(guid, 0)
                .filter(a -> a.state() == ActualLrpState.RUNNING).isPresent());
        return lrps.find(guid, 0).orElseThrow();
    }
}
