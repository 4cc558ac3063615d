package io.drover.receptor.ui;

import io.drover.model.read.ActualLrpRow;
import io.drover.model.json.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One instance's row on the LRP page: index, state (and the instance guid, so a restart shows), the definition version
 * it runs, cell, address with its host ports, since, crashes and why.
 */
public record InstanceLine(int index, String state, String instanceGuid, String cellId, String address, String since,
        int crashCount, String crashReason, String placementError, boolean evacuating, int definitionVersion) {

    static InstanceLine of(ActualLrpRow row, Instant now) {
        return new InstanceLine(row.index(), row.state().name(), row.instanceGuid(), row.cellId(), address(row),
                Display.ago(Instant.ofEpochMilli(row.sinceMillis()), now) + " ago", row.crashCount(),
                row.crashReason(), row.placementError(), row.evacuating(), row.definitionVersion());
    }

    /** The address with each host port ("10.0.0.5:61001"), or the bare address when it maps none. */
    private static String address(ActualLrpRow row) {
        if (row.address() == null) {
            return null;
        }
        if (row.portsJson() == null) {
            return row.address();
        }
        List<String> mapped = new ArrayList<>();
        Json.tree(row.portsJson()).forEach(p -> mapped.add(row.address() + ":" + p.path("host_port").asInt()));
        return mapped.isEmpty() ? row.address() : String.join(", ", mapped);
    }
}
