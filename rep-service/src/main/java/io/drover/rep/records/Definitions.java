package io.drover.rep.records;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.DefinitionVersion;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.read.DesiredLrpRows;
import io.drover.model.read.DesiredLrpRows.DefinitionAt;
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
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The definitions of desired LRPs, read in one query per batch and kept for a short while: the cells of one rep
 * process start many instances of the same LRP in the same seconds. Placements are served by the life and version
 * they name, so a deleted and re-created process guid is never served its old definition; the current definitions
 * ({@link #get}, for the resources of adopted containers) are kept only briefly.
 */
public class Definitions {

    private static final int MAX_CACHED = 50_000;

    private final DesiredLrpRows rows;
    private final Clock clock;
    private final Duration ttl;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();
    private final Map<Key, CachedVersion> versions = new ConcurrentHashMap<>();

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
     * The definition each placement is to run: that of the definition version it carries (SPEC 14) in the life of the
     * LRP it carries (a desired LRP deleted and desired again starts at version 1 again, so the version alone does not
     * tell two lives apart). A placement of a deleted LRP, of an earlier life, of a version the history no longer keeps,
     * or that carries no version or life (from an auctioneer that predates them) is missing: it is stale. A version's
     * definition never changes within a life, so what was read is kept for the cache's time.
     */
    public Map<ActualLrpKey, DefinitionAt> forPlacements(Collection<LrpsPlaced.Placement> placements) {
        Instant now = clock.instant();
        Map<ActualLrpKey, Key> wanted = new LinkedHashMap<>();
        placements.stream().filter(p -> p.definitionVersion() != null && p.lrpEpoch() != null)
                .forEach(p -> wanted.put(ActualLrpKey.of(p.processGuid(), p.index()),
                        new Key(p.processGuid(), p.lrpEpoch(), p.definitionVersion())));
        Map<Key, DefinitionAt> known = new HashMap<>();
        List<DefinitionVersion> missing = new ArrayList<>();
        for (Key k : new LinkedHashSet<>(wanted.values())) {
            CachedVersion c = versions.get(k);
            if (c != null && c.loadedAt.plus(ttl).isAfter(now)) {
                known.put(k, c.definition);
            } else {
                missing.add(new DefinitionVersion(k.processGuid(), k.version()));
            }
        }
        if (!missing.isEmpty()) {
            if (versions.size() > MAX_CACHED) {
                versions.clear();
            }
            rows.definitionsAt(missing).forEach((v, at) -> {
                Key k = new Key(v.processGuid(), at.id().lrpEpoch(), v.version());
                versions.put(k, new CachedVersion(at, now));
                known.put(k, at);
            });
        }
        Map<ActualLrpKey, DefinitionAt> found = new LinkedHashMap<>();
        wanted.forEach((key, k) -> {
            DefinitionAt at = known.get(k);
            if (at != null) {
                found.put(key, at);
            }
        });
        return found;
    }

    /** One definition of one life of an LRP, as the cache keys it. */
    private record Key(String processGuid, UUID lrpEpoch, int version) {
    }

    private record CachedVersion(DefinitionAt definition, Instant loadedAt) {
    }

    private record Cached(DesiredLrpDefinition definition, Instant loadedAt) {
    }
}
