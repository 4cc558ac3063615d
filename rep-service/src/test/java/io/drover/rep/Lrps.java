package io.drover.rep;

import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.RunAction;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** Test fixtures that reach every state through the lifecycle, playing the receptor and the auctioneer. */
record Lrps(DesiredLrpLifecycle desired, ActualLrpLifecycle actual, ActualLrpRepository actuals) {

    static final Actor TEST = Actor.service("test");

    /** Desires {@code instances} of a new LRP with one container port; returns its process guid. */
    String desire(String prefix, int instances, int memoryMb) {
        String guid = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        desired.desire(new DesiredLrpDefinition(guid, "d1", "preloaded:host", instances,
                new Action(new RunAction("sleep", List.of("1000"), null, null, null)), null, null, 0, null,
                List.of(8080), memoryMb, 64, 0, 0, null, null, null, null, null), TEST);
        return guid;
    }

    /** What the auctioneer does: places these indices on the cell, which sends the cell an auction result. */
    void place(String guid, String cellId, int... indices) {
        Map<ActualLrpKey, String> placements = IntStream.of(indices).boxed()
                .collect(Collectors.toMap(i -> ActualLrpKey.of(guid, i), i -> cellId));
        actual.place(UUID.randomUUID(), placements, Actor.service("auctioneer"));
    }

    Optional<ActualLrp> find(String guid, int index) {
        return actuals.findById(ActualLrpKey.of(guid, index));
    }

    List<ActualLrp> all(String guid) {
        return actuals.findByProcessGuid(guid);
    }
}
