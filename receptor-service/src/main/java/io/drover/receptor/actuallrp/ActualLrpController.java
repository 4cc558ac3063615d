package io.drover.receptor.actuallrp;

import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpSnapshot;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.CrashRestartPolicy;
import io.drover.model.lrp.IllegalTransitionException;
import io.drover.model.lrp.Outcome;
import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /v1/actual_lrps}: where each instance is and in which state (SPEC 5.3), and restart of one instance, which
 * retires it so the converger creates its replacement.
 */
@RestController
@RequestMapping("/v1/actual_lrps")
@Tag(name = "actual LRPs", description = "What runs where: instances and their states")
class ActualLrpController {

    private static final Logger log = LoggerFactory.getLogger(ActualLrpController.class);
    /** The process_guid grammar; anything else cannot name a desired LRP, so it has no instances. */
    static final Pattern PROCESS_GUID = Pattern.compile("[a-zA-Z0-9_-]{1,128}");

    private final ActualLrpRepository repository;
    private final ActualLrpLifecycle lifecycle;
    private final CrashRestartPolicy policy;

    ActualLrpController(ActualLrpRepository repository, ActualLrpLifecycle lifecycle, CrashRestartPolicy policy) {
        this.repository = repository;
        this.lifecycle = lifecycle;
        this.policy = policy;
    }

    @GetMapping
    @Operation(summary = "List actual LRPs, optionally of one domain")
    List<ActualLrpSnapshot> list(@RequestParam(required = false) String domain) {
        if (domain != null && domain.indexOf('\0') >= 0) {
            return List.of();
        }
        return snapshots(domain == null ? repository.findAllOrdered() : repository.findByDomain(domain));
    }

    @GetMapping("/{processGuid}")
    @Operation(summary = "The instances of one process_guid (possibly none)")
    List<ActualLrpSnapshot> byProcessGuid(@PathVariable String processGuid) {
        return PROCESS_GUID.matcher(processGuid).matches() ? snapshots(repository.findByProcessGuid(processGuid))
                : List.of();
    }

    @GetMapping("/{processGuid}/index/{index}")
    @Operation(summary = "One instance", description = "404 ActualLRPIndexNotFound.")
    ActualLrpSnapshot byIndex(@PathVariable String processGuid, @PathVariable int index) {
        ActualLrpKey key = key(processGuid, index);
        return repository.findById(key).map(lrp -> lrp.snapshot(policy))
                .orElseThrow(() -> notFound(processGuid, index));
    }

    @DeleteMapping("/{processGuid}/index/{index}")
    @Operation(summary = "Restart one instance", description = "Retires the instance (a running one is stopped by "
            + "its cell); the converger then creates its replacement. 404 ActualLRPIndexNotFound.")
    ResponseEntity<Void> restart(@PathVariable String processGuid, @PathVariable int index) {
        ActualLrpKey key = key(processGuid, index);
        if (repository.findById(key).isEmpty()) {
            throw notFound(processGuid, index);
        }
        // Retiring a missing record is a no-op for the lifecycle; the API still says it was not there.
        Outcome outcome = lifecycle.retire(List.of(key), "restart requested", Actor.service("receptor")).get(key);
        if (outcome == null || outcome.kind() == Outcome.Kind.NOT_FOUND) {
            throw notFound(processGuid, index);
        }
        if (outcome.kind() == Outcome.Kind.REJECTED) {
            throw new IllegalTransitionException(key, outcome.message());
        }
        log.info("restart-actual-lrp process_guid={} index={} outcome={}", processGuid, index, outcome.kind());
        return ResponseEntity.noContent().build();
    }

    private List<ActualLrpSnapshot> snapshots(List<ActualLrp> lrps) {
        return lrps.stream().map(lrp -> lrp.snapshot(policy)).toList();
    }

    private static ActualLrpKey key(String processGuid, int index) {
        if (!PROCESS_GUID.matcher(processGuid).matches() || index < 0) {
            throw notFound(processGuid, index);
        }
        return ActualLrpKey.of(processGuid, index);
    }

    private static ApiException notFound(String processGuid, int index) {
        return new ApiException(HttpStatus.NOT_FOUND, ApiError.ACTUAL_LRP_INDEX_NOT_FOUND,
                "actual LRP not found: " + processGuid + " index " + index);
    }
}
