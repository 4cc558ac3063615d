package io.drover.rep.records;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.DefinitionVersion;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.read.DesiredLrpRows;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
    private final Map<DefinitionVersion, Cached> versions = new ConcurrentHashMap<>();

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

    /**
     * The definition each placement is to run: that of the definition version it carries (SPEC 14), or the LRP's
     * current one when it carries none. A placement of a deleted LRP is missing. Versions are read once and kept like
     * the current definitions: a version's definition never changes.
     */
    public Map<ActualLrpKey, DesiredLrpDefinition> forPlacements(Collection<LrpsPlaced.Placement> placements) {
        Instant now = clock.instant();
        Map<ActualLrpKey, DefinitionVersion> wanted = new LinkedHashMap<>();
        placements.forEach(p -> wanted.put(ActualLrpKey.of(p.processGuid(), p.index()),
                new DefinitionVersion(p.processGuid(), p.definitionVersion() == null ? 0 : p.definitionVersion())));
        Map<DefinitionVersion, DesiredLrpDefinition> known = new HashMap<>();
        List<DefinitionVersion> missing = new ArrayList<>();
        for (DefinitionVersion v : new LinkedHashSet<>(wanted.values())) {
            Cached c = versions.get(v);
            if (c != null && c.loadedAt.plus(ttl).isAfter(now)) {
                known.put(v, c.definition);
            } else {
                missing.add(v);
            }
        }
        if (!missing.isEmpty()) {
            if (versions.size() > MAX_CACHED) {
                versions.clear();
            }
            rows.definitionsAt(missing).forEach((v, definition) -> {
                versions.put(v, new Cached(definition, now));
                known.put(v, definition);
            });
        }
        Map<ActualLrpKey, DesiredLrpDefinition> found = new LinkedHashMap<>();
        wanted.forEach((key, v) -> {
            DesiredLrpDefinition d = known.get(v);
            if (d != null) {
                found.put(key, d);
            }
        });
        return found;
    }

    private record Cached(DesiredLrpDefinition definition, Instant loadedAt) {
    }
}
