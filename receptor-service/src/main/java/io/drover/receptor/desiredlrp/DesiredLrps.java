package io.drover.receptor.desiredlrp;

import io.drover.model.json.Json;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.DesiredLrpNotFoundException;
import io.drover.model.lrp.DesiredLrpSnapshot;
import io.drover.model.lrp.ModificationTag;
import io.drover.model.lrp.StaleModificationTagException;
import io.drover.model.planted.PlantedBug;
import io.drover.model.read.DesiredLrpRows;
import io.drover.receptor.web.GroupCommit;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import tools.jackson.core.type.TypeReference;

/**
 * What the desired LRP writes do: through {@link DesiredLrpLifecycle}, which creates and retires the actual instances
 * in the same transaction (desires through this receptor's group commit, {@link GroupCommit}: a burst of them shares
 * transactions, as task submissions do), and holds the If-Match rule: a given tag must name the current incarnation (epoch) and
 * version of the row the update reads, otherwise 409.
 */
@Service
class DesiredLrps {

    static final Actor RECEPTOR = Actor.service("receptor");
    private static final TypeReference<List<Integer>> PORTS = new TypeReference<>() {
    };
    private static final Logger log = LoggerFactory.getLogger(DesiredLrps.class);

    private final DesiredLrpLifecycle lifecycle;
    private final DesiredLrpRows rows;
    private final Counter conflicts;
    private final GroupCommit<DesiredLrpDefinition, DesiredLrpSnapshot> desires;

    DesiredLrps(DesiredLrpLifecycle lifecycle, DesiredLrpRows rows, MeterRegistry meters) {
        this.lifecycle = lifecycle;
        this.rows = rows;
        this.conflicts = Counter.builder("drover.receptor.update.conflicts")
                .description("desired LRP updates answered 409 (stale If-Match or compare-and-swap lost twice)")
                .register(meters);
        this.desires = new GroupCommit<>("lrp-desires", batch -> lifecycle.desireAll(batch, RECEPTOR).stream()
                .map(d -> new GroupCommit.Answer<>(d.lrp(), d.refusal())).toList());
    }

    @PreDestroy
    void stop() {
        desires.close();
    }

    DesiredLrpSnapshot desire(DesiredLrpDefinition definition) {
        DesiredLrpSnapshot created = desires.submit(definition);
        log.info("desire-lrp process_guid={} domain={} instances={}", definition.processGuid(), definition.domain(),
                definition.instances());
        return created;
    }

    /** Applies the update; {@code tags} empty means unconditional (the lifecycle retries its compare-and-swap). */
    DesiredLrpSnapshot update(String processGuid, DesiredLrpRequests.Update update, List<ModificationTag> tags) {
        if (update.change().routes() != null) {
            // The router's routes name one of the LRP's ports; an LRP not found is the update's 404.
            rows.find(processGuid).ifPresent(row -> DesiredLrpRequests.checkRoutes(update.change().routes(),
                    Json.read(row.portsJson(), PORTS)));
        }
        DesiredLrpSnapshot updated;
        try {
            updated = lifecycle.update(processGuid, update.change(), PlantedBug.IF_MATCH.planted() ? List.of() : tags,
                    RECEPTOR);
        } catch (StaleModificationTagException e) {
            conflicts.increment();
            log.info("update-desired-lrp-conflict process_guid={} if_match={}", processGuid, describe(tags));
            throw e;
        }
        log.info("update-desired-lrp process_guid={} instances={} if_match={} version={}", processGuid,
                update.change().instances(), describe(tags), updated.modificationTag().index());
        return updated;
    }

    void remove(String processGuid) {
        requireValidGuid(processGuid);
        lifecycle.remove(processGuid, RECEPTOR);
        log.info("remove-desired-lrp process_guid={}", processGuid);
    }

    private static String describe(List<ModificationTag> tags) {
        return tags.isEmpty() ? "*" : String.join(",", tags.stream().map(t -> t.epoch() + ":" + t.index()).toList());
    }

    /** A process_guid that could never have been created cannot be found (and never reaches the database). */
    static void requireValidGuid(String processGuid) {
        if (!DesiredLrpRequests.PROCESS_GUID.matcher(processGuid).matches()) {
            throw new DesiredLrpNotFoundException(processGuid);
        }
    }
}
