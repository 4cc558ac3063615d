package io.drover.model.cell;

import java.util.List;

/**
 * What a rep advertises about its cell on every heartbeat.
 *
 * @param logEndpoint the base URL of the rep's internal log server ({@code http://host:port}) the receptor reads
 *     instance logs from; null when the cell serves no logs
 */
public record CellRegistration(String cellId, String zone, String address, Resources capacity,
        List<String> rootfsProviders, List<String> placementTags, List<String> optionalPlacementTags,
        String logEndpoint) {

    public CellRegistration {
        rootfsProviders = rootfsProviders == null ? List.of() : List.copyOf(rootfsProviders);
        placementTags = placementTags == null ? List.of() : List.copyOf(placementTags);
        optionalPlacementTags = optionalPlacementTags == null ? List.of() : List.copyOf(optionalPlacementTags);
    }

    /** A cell that serves no logs. */
    public CellRegistration(String cellId, String zone, String address, Resources capacity,
            List<String> rootfsProviders, List<String> placementTags, List<String> optionalPlacementTags) {
        this(cellId, zone, address, capacity, rootfsProviders, placementTags, optionalPlacementTags, null);
    }

    /** The same registration, serving logs at {@code endpoint}. */
    public CellRegistration withLogEndpoint(String endpoint) {
        return new CellRegistration(cellId, zone, address, capacity, rootfsProviders, placementTags,
                optionalPlacementTags, endpoint);
    }
}
