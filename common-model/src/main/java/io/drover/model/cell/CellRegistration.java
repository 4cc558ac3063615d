package io.drover.model.cell;

import java.util.List;

/** What a rep advertises about its cell on every heartbeat. */
public record CellRegistration(String cellId, String zone, String address, Resources capacity,
        List<String> rootfsProviders, List<String> placementTags, List<String> optionalPlacementTags) {

    public CellRegistration {
        rootfsProviders = rootfsProviders == null ? List.of() : List.copyOf(rootfsProviders);
        placementTags = placementTags == null ? List.of() : List.copyOf(placementTags);
        optionalPlacementTags = optionalPlacementTags == null ? List.of() : List.copyOf(optionalPlacementTags);
    }
}
