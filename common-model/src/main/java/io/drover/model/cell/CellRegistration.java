package io.drover.model.cell;

import java.util.List;

/**
 * What a rep advertises about its cell on every heartbeat, including how it isolates what it runs and where it serves
 * its instances' logs.
 *
 * @param isolation how the cell isolates and measures its instances; {@link CellIsolation#UNKNOWN} when not said
 * @param logEndpoint the base URL of the rep's internal log server ({@code http://host:port}) the receptor reads
 *     instance logs from; null when the cell serves no logs
 */
public record CellRegistration(String cellId, String zone, String address, Resources capacity,
        List<String> rootfsProviders, List<String> placementTags, List<String> optionalPlacementTags,
        CellIsolation isolation, String logEndpoint) {

    public CellRegistration {
        rootfsProviders = rootfsProviders == null ? List.of() : List.copyOf(rootfsProviders);
        placementTags = placementTags == null ? List.of() : List.copyOf(placementTags);
        optionalPlacementTags = optionalPlacementTags == null ? List.of() : List.copyOf(optionalPlacementTags);
        isolation = isolation == null ? CellIsolation.UNKNOWN : isolation;
    }

    /** A cell that does not say how it isolates its instances ({@link CellIsolation#UNKNOWN}) and serves no logs. */
    public CellRegistration(String cellId, String zone, String address, Resources capacity,
            List<String> rootfsProviders, List<String> placementTags, List<String> optionalPlacementTags) {
        this(cellId, zone, address, capacity, rootfsProviders, placementTags, optionalPlacementTags,
                CellIsolation.UNKNOWN, null);
    }

    /** A cell that isolates its instances by {@code isolation} and serves no logs. */
    public CellRegistration(String cellId, String zone, String address, Resources capacity,
            List<String> rootfsProviders, List<String> placementTags, List<String> optionalPlacementTags,
            CellIsolation isolation) {
        this(cellId, zone, address, capacity, rootfsProviders, placementTags, optionalPlacementTags, isolation, null);
    }

    /** A cell that does not say how it isolates its instances and serves logs at {@code logEndpoint}. */
    public CellRegistration(String cellId, String zone, String address, Resources capacity,
            List<String> rootfsProviders, List<String> placementTags, List<String> optionalPlacementTags,
            String logEndpoint) {
        this(cellId, zone, address, capacity, rootfsProviders, placementTags, optionalPlacementTags,
                CellIsolation.UNKNOWN, logEndpoint);
    }

    /** The same registration with the given isolation. */
    public CellRegistration withIsolation(CellIsolation mode) {
        return new CellRegistration(cellId, zone, address, capacity, rootfsProviders, placementTags,
                optionalPlacementTags, mode, logEndpoint);
    }

    /** The same registration, serving logs at {@code endpoint}. */
    public CellRegistration withLogEndpoint(String endpoint) {
        return new CellRegistration(cellId, zone, address, capacity, rootfsProviders, placementTags,
                optionalPlacementTags, isolation, endpoint);
    }
}
