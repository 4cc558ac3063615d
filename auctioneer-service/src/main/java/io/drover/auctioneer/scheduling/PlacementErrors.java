package io.drover.auctioneer.scheduling;

import java.util.List;
import java.util.Set;

/** The placement errors of SPEC 7, word for word: reps, operators and tests match on them. */
public final class PlacementErrors {

    public static final String NO_CELLS = "no cells available";
    public static final String ROOTFS = "found no compatible cell for required rootfs";
    public static final String IN_FLIGHT_LIMIT = "waiting to start instance: reached in-flight start limit";
    static final String INSUFFICIENT_PREFIX = "insufficient resources: ";
    static final String TAGS_PREFIX = "found no compatible cell with ";

    private PlacementErrors() {
    }

    /** {@code insufficient resources: memory, disk}: resources in the order memory, disk, containers. */
    public static String insufficientResources(List<String> resources) {
        return INSUFFICIENT_PREFIX + String.join(", ", resources);
    }

    /**
     * Diego's wording: {@code found no compatible cell with no placement tags}, {@code ... with placement tag "a"},
     * {@code ... with placement tags "a", "b" and "c"}; tags sorted so the message is stable.
     */
    public static String placementTags(Set<String> tags) {
        List<String> quoted = tags.stream().sorted().map(t -> "\"" + t + "\"").toList();
        return switch (quoted.size()) {
            case 0 -> TAGS_PREFIX + "no placement tags";
            case 1 -> TAGS_PREFIX + "placement tag " + quoted.get(0);
            default -> TAGS_PREFIX + "placement tags " + String.join(", ", quoted.subList(0, quoted.size() - 1))
                    + " and " + quoted.get(quoted.size() - 1);
        };
    }

    /** A bounded label for metrics: the kind of error without its details. */
    public static String reason(String error) {
        if (error.startsWith(INSUFFICIENT_PREFIX)) {
            return "insufficient_resources";
        } else if (error.startsWith(TAGS_PREFIX)) {
            return "placement_tags";
        }
        return switch (error) {
            case NO_CELLS -> "no_cells";
            case ROOTFS -> "rootfs";
            case IN_FLIGHT_LIMIT -> "in_flight_limit";
            default -> "other";
        };
    }
}
