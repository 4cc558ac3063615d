package io.drover.model.cell;

import java.util.List;

/** What a rep advertises about its cell on every heartbeat, including how it isolates what it runs. */
public record CellRegistration(String cellId, String zone, String address, Resources capacity,
        List<String> rootfsProviders, List<String> placementTags, List<String> optionalPlacementTags,
        CellIsolation isolation) {

    public CellRegistration {
        rootfsProviders = rootfsProviders == null ? List.of() : List.copyOf(rootfsProviders);
        placementTags = placementTags == null ? List.of() : List.copyOf(placementTags);
        optionalPlacementTags = optionalPlacementTags == null ? List.of() : List.copyOf(optionalPlacementTags);
        isolation = isolation == null ? CellIsolation.UNKNOWN : isolation;
    }

    /** A registration that does not say how the cell isolates its instances ({@link CellIsolation#UNKNOWN}). */
    public CellRegistration(String cellId, String zone, String address, Resources capacity,
            List<String> rootfsProviders, List<String> placementTags, List<String> optionalPlacementTags) {
        this(cellId, zone, address, capacity, rootfsProviders, placementTags, optionalPlacementTags,
                CellIsolation.UNKNOWN);
    }

    /** The same registration with the given isolation. */
    public CellRegistration withIsolation(CellIsolation mode) {
        return new CellRegistration(cellId, zone, address, capacity, rootfsProviders, placementTags,
                optionalPlacementTags, mode);
    }
}
