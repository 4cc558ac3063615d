package io.drover.receptor.actuallrp;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpSnapshot;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.CrashRestartPolicy;
import io.drover.model.lrp.IllegalTransitionException;
import io.drover.model.lrp.Outcome;
import io.drover.model.read.ActualLrpRow;
import io.drover.model.read.ActualLrpRows;
import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import io.drover.receptor.web.JsonResponses;
import io.drover.receptor.web.KeysetListing;
import io.drover.receptor.web.ListTag;
import io.drover.receptor.web.ProcessGuids;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JsonGenerator;

/**
 * {@code /v1/actual_lrps}: where each instance is and in which state (SPEC 5.3), and restart of one instance, which
 * retires it so the converger creates its replacement. Reads go from the read model's rows straight to JSON, each with
 * an ETag that {@code If-None-Match} turns into a 304.
 */
@RestController
@RequestMapping("/v1/actual_lrps")
@Tag(name = "actual LRPs", description = "What runs where: instances and their states")
class ActualLrpController {

    private static final Logger log = LoggerFactory.getLogger(ActualLrpController.class);
    private static final String JSON = MediaType.APPLICATION_JSON_VALUE;

    private final ActualLrpRows rows;
    private final ActualLrpLifecycle lifecycle;
    private final ActualLrpJson json;

    ActualLrpController(ActualLrpRows rows, ActualLrpLifecycle lifecycle, CrashRestartPolicy policy) {
        this.rows = rows;
        this.lifecycle = lifecycle;
        this.json = new ActualLrpJson(policy);
    }

    @GetMapping(produces = JSON)
    @Operation(summary = "List actual LRPs, optionally of one domain", description = "With limit: one page in key "
            + "order, and a Drover-Continue header carrying the token of the next page while instances remain.")
    @ApiResponse(responseCode = "200", content = @Content(mediaType = JSON,
            array = @ArraySchema(schema = @Schema(implementation = ActualLrpSnapshot.class))))
    void list(@RequestParam(required = false) String domain,
            @Parameter(description = "page size (1-5000)") @RequestParam(required = false) String limit,
            @Parameter(description = "token from Drover-Continue") @RequestParam(name = "continue", required = false)
            String continueToken, HttpServletRequest request, HttpServletResponse response) throws IOException {
        KeysetListing.respond(request, response, new ActualLrpList(rows, json, domain), domain, limit, continueToken);
    }

    @GetMapping(path = "/{processGuid}", produces = JSON)
    @Operation(summary = "The instances of one process_guid (possibly none)")
    @ApiResponse(responseCode = "200", content = @Content(mediaType = JSON,
            array = @ArraySchema(schema = @Schema(implementation = ActualLrpSnapshot.class))))
    void byProcessGuid(@PathVariable String processGuid, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        List<ActualLrpRow> instances = ProcessGuids.isValid(processGuid) ? rows.ofProcess(processGuid)
                : List.of();
        ListTag tag = new ListTag();
        instances.forEach(r -> tag.add(r.processGuid(), r.index(), r.epoch(), r.version()));
        String etag = tag.weakTag("i");
        if (JsonResponses.notModified(request, response, etag)) {
            return;
        }
        try (JsonGenerator generator = JsonResponses.ok(response, etag)) {
            generator.writeStartArray();
            instances.forEach(row -> json.write(generator, row));
            generator.writeEndArray();
        }
    }

    @GetMapping(path = "/{processGuid}/index/{index}", produces = JSON)
    @Operation(summary = "One instance", description = "404 ActualLRPIndexNotFound.")
    @ApiResponse(responseCode = "200", content = @Content(mediaType = JSON,
            schema = @Schema(implementation = ActualLrpSnapshot.class)))
    void byIndex(@PathVariable String processGuid, @PathVariable int index, HttpServletRequest request,
            HttpServletResponse response) throws IOException {
        ActualLrpRow row = rows.find(key(processGuid, index)).orElseThrow(() -> notFound(processGuid, index));
        String etag = "\"" + row.epoch() + ":" + row.version() + "\"";
        if (JsonResponses.notModified(request, response, etag)) {
            return;
        }
        try (JsonGenerator generator = JsonResponses.ok(response, etag)) {
            json.write(generator, row);
        }
    }

    @DeleteMapping("/{processGuid}/index/{index}")
    @Operation(summary = "Restart one instance", description = "Retires the instance (a running one is stopped by "
            + "its cell); the converger then creates its replacement. 404 ActualLRPIndexNotFound.")
    ResponseEntity<Void> restart(@PathVariable String processGuid, @PathVariable int index) {
        ActualLrpKey key = key(processGuid, index);
        if (rows.find(key).isEmpty()) {
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

    private static ActualLrpKey key(String processGuid, int index) {
        if (!ProcessGuids.isValid(processGuid) || index < 0) {
            throw notFound(processGuid, index);
        }
        return ActualLrpKey.of(processGuid, index);
    }

    private static ApiException notFound(String processGuid, int index) {
        return new ApiException(HttpStatus.NOT_FOUND, ApiError.ACTUAL_LRP_INDEX_NOT_FOUND,
                "actual LRP not found: " + processGuid + " index " + index);
    }
}
