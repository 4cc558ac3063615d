package io.drover.rep.records;

import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.read.DesiredLrpRows;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The definitions of desired LRPs, read in one query per batch and kept for a short while: the cells of one rep
 * process start many instances of the same LRP in the same seconds. The short life bounds how long a deleted and
 * re-created process guid could be served its old definition.
 */
public class Definitions {

    private static final int MAX_CACHED = 50_000;

    private final DesiredLrpRows rows;
    private final Clock clock;
    private final Duration ttl;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    public Definitions(DesiredLrpRows rows, Clock clock, Duration ttl) {
        this.rows = rows;
        this.clock = clock;
        this.ttl = ttl;
    }

    /** The definitions that exist among {@code processGuids}; a missing one was deleted. */
    public Map<String, DesiredLrpDefinition> get(Collection<String> processGuids) {
        Instant now = clock.instant();
        Map<String, DesiredLrpDefinition> found = new HashMap<>();
        List<String> missing = new ArrayList<>();
        for (String guid : processGuids) {
            Cached c = cache.get(guid);
            if (c != null && c.loadedAt.plus(ttl).isAfter(now)) {
                found.put(guid, c.definition);
            } else if (!found.containsKey(guid)) {
                missing.add(guid);
            }
        }
        if (!missing.isEmpty()) {
            if (cache.size() > MAX_CACHED) {
                cache.clear();
            }
            rows.definitions(missing).forEach((guid, definition) -> {
                cache.put(guid, new Cached(definition, now));
                found.put(guid, definition);
            });
        }
        return found;
    }

    private record Cached(DesiredLrpDefinition definition, Instant loadedAt) {
    }
}
