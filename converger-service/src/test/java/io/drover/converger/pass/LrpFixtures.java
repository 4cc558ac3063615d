package io.drover.converger.pass;

import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.DesiredLrpUpdate;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.RunAction;
import io.drover.model.lrp.StartedInstance;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

/** Brings the model into a state through the lifecycles only, as the receptor, auctioneer and reps would. */
final class LrpFixtures {

    static final String DOMAIN = "it-apps";
    private static final Actor TEST = Actor.service("test");

    private final DesiredLrpLifecycle desired;
    private final ActualLrpLifecycle actual;
    private final CellPresence cells;

    LrpFixtures(DesiredLrpLifecycle desired, ActualLrpLifecycle actual, CellPresence cells) {
        this.desired = desired;
        this.actual = actual;
        this.cells = cells;
    }

    static String guid(String name) {
        return name + "-" + UUID.randomUUID();
    }

    static List<ActualLrpKey> keys(String processGuid, int instances) {
        return IntStream.range(0, instances).mapToObj(i -> ActualLrpKey.of(processGuid, i)).toList();
    }

    void desire(String processGuid, int instances) {
        desire(processGuid, instances, DOMAIN);
    }

    void desire(String processGuid, int instances, String domain) {
        desired.desire(new DesiredLrpDefinition(processGuid, domain, "preloaded:host", instances,
                new Action(new RunAction("sleep", List.of("1000"), null, null, null)), null, null, 0, null,
                List.of(8080), 64, 64, 0, 0, null, null, null, null, null), TEST);
    }

    void heartbeat(String cellId, Duration ttl) {
        cells.heartbeat(new CellRegistration(cellId, "z1", "10.0.0.1", new Resources(4096, 4096, 100),
                List.of("preloaded:host"), List.of(), List.of()), ttl);
    }

    /** Auction, claim and start, as the auctioneer and the cell's rep would. */
    void runOn(ActualLrpKey key, String cellId) {
        runOn(key, cellId, DOMAIN);
    }

    void runOn(ActualLrpKey key, String cellId, String domain) {
        InstanceOwner owner = InstanceOwner.of(UUID.randomUUID().toString(), cellId);
        actual.place(UUID.randomUUID(), Map.of(key, cellId), Actor.service("auctioneer"));
        actual.claim(key, owner, Actor.cell(cellId));
        actual.start(new StartedInstance(key, domain, owner,
                new NetInfo("10.0.0.1", List.of(new NetInfo.PortMapping(8080, 61000 + key.index())))),
                Actor.cell(cellId));
    }

    void scale(String processGuid, int instances) {
        desired.update(processGuid, new DesiredLrpUpdate(instances, null, null), List.of(), TEST);
    }

    void remove(String processGuid) {
        desired.remove(processGuid, TEST);
    }

    /** Claims the instance and crashes it before it starts; returns the state the crash left it in. */
    ActualLrpState claimAndCrash(ActualLrpKey key, String cellId) {
        InstanceOwner owner = InstanceOwner.of(UUID.randomUUID().toString(), cellId);
        actual.claim(key, owner, Actor.cell(cellId));
        return actual.crash(key, owner, "exited with status 1", Actor.cell(cellId));
    }
}
