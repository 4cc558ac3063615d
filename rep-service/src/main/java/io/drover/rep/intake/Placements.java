package io.drover.rep.intake;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ClaimRequest;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.Outcome;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.placement.Placement;
import io.drover.model.read.DesiredLrpRows.DefinitionAt;
import io.drover.rep.cell.Allocations;
import io.drover.rep.cell.RepMetrics;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.Executor;
import io.drover.rep.executor.InsufficientResourcesException;
import io.drover.rep.intake.PlacementChecks;
import io.drover.rep.records.Definitions;
import io.drover.rep.writes.Operations;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Turns a cell's placements into running containers: check what is left on the cell (too big → the placement fails
 * and the instance is auctioned again), claim the rest in batches (an overtaken placement's claim is refused), then run
 * them.
 */
public final class Placements {

    private final Executor executor;
    private final Operations ops;
    private final Allocations allocations;
    private final Definitions definitions;
    private final Supplier<UUID> ids;
    private final RepMetrics metrics;
    private final String cellId;

    public Placements(Executor executor, Operations ops, Allocations allocations, Definitions definitions,
            Supplier<UUID> ids, RepMetrics metrics, String cellId) {
        this.executor = executor;
        this.ops = ops;
        this.allocations = allocations;
        this.definitions = definitions;
        this.ids = ids;
        this.metrics = metrics;
        this.cellId = cellId;
    }

    /**
     * Whether a placement is still current (placed on this cell, same record, same definition version) is decided by
     * the claim itself, in its transaction: an overtaken placement's claim is rejected and its reservation released.
     * A placement whose definition cannot be found as it names it (its LRP deleted, or of an earlier life) is stale.
     */
    public void handle(Collection<LrpsPlaced.Placement> placements, boolean evacuating, int batchSize) {
        Map<ActualLrpKey, LrpsPlaced.Placement> byKey = new LinkedHashMap<>();
        placements.forEach(p -> byKey.put(ActualLrpKey.of(p.processGuid(), p.index()), p));
        if (evacuating) {
            ops.rejectPlacements(byKey.keySet().stream().collect(Collectors.toMap(k -> k, k -> "cell is evacuating")));
            return;
        }
        Map<ActualLrpKey, DefinitionAt> definitions = this.definitions.forPlacements(byKey.values());
        Map<ActualLrpKey, Resources> needs = new LinkedHashMap<>();
        definitions.forEach((k, at) -> needs.put(k, need(at.definition())));
        metrics.stale(byKey.size() - needs.size());
        PlacementChecks.Admission admission = PlacementChecks.admit(needs, allocations.available());
        ops.rejectPlacements(admission.rejected());
        for (int from = 0; from < admission.accepted().size(); from += batchSize) {
            List<ActualLrpKey> chunk = admission.accepted().subList(from,
                    Math.min(admission.accepted().size(), from + batchSize));
            claimAndRun(chunk, byKey, definitions, needs);
        }
    }

    private void claimAndRun(List<ActualLrpKey> keys, Map<ActualLrpKey, LrpsPlaced.Placement> placements,
            Map<ActualLrpKey, DefinitionAt> definitions, Map<ActualLrpKey, Resources> needs) {
        Map<ActualLrpKey, ClaimRequest> claims = new LinkedHashMap<>();
        keys.forEach(k -> claims.put(k, new ClaimRequest(InstanceOwner.of(ids.get().toString(), cellId),
                new Placement(cellId, placements.get(k).epoch(), definitions.get(k).id().version()))));
        Map<ActualLrpKey, Outcome> outcomes = ops.claim(claims);
        List<ActualLrpKey> refused = new ArrayList<>();
        int stale = 0;
        for (ActualLrpKey key : keys) {
            if (!outcomes.get(key).succeeded()) {
                stale++;
                continue;
            }
            String guid = claims.get(key).owner().instanceGuid();
            allocations.reserve(guid, needs.get(key));
            try {
                executor.run(new ContainerSpec(key, guid, definitions.get(key).definition(), definitions.get(key).id()));
            } catch (InsufficientResourcesException e) {
                // The executor knows more than our ledger (host ports): hand the slot back for another auction.
                allocations.release(guid);
                refused.add(key);
            }
        }
        metrics.stale(stale);
        ops.unclaim(refused, "rejected by cell " + cellId + ": insufficient resources");
    }

    /** Containers a previous run of the rep left hold their resources too. */
    public void reserveAdopted(List<Container> adopted) {
        if (adopted.isEmpty()) {
            return;
        }
        Map<String, DesiredLrpDefinition> definitions = this.definitions.get(
                adopted.stream().map(c -> c.key().processGuid()).distinct().toList());
        adopted.stream().filter(c -> definitions.containsKey(c.key().processGuid())).forEach(
                c -> allocations.reserve(c.instanceGuid(), need(definitions.get(c.key().processGuid()))));
    }

    public static Resources need(DesiredLrpDefinition definition) {
        return new Resources(definition.memoryMb(), definition.diskMb(), 1);
    }
}
