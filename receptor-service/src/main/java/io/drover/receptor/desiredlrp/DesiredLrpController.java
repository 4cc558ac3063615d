package io.drover.receptor.desiredlrp;

import io.drover.model.autoscale.AutoscalingStatus;
import io.drover.model.lrp.DesiredLrpNotFoundException;
import io.drover.model.lrp.DesiredLrpSnapshot;
import io.drover.model.lrp.ModificationTag;
import io.drover.model.read.AutoscalerStatuses;
import io.drover.model.read.DesiredLrpRow;
import io.drover.model.read.DesiredLrpRows;
import io.drover.receptor.web.JsonBodies;
import io.drover.receptor.web.JsonResponses;
import io.drover.receptor.web.KeysetListing;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /v1/desired_lrps}: Diego receptor v1 paths, status codes and error names (SPEC 5.1). Writes go through the
 * lifecycle; reads go from the read model's rows straight to JSON, with an ETag that {@code If-None-Match} turns into a
 * 304.
 */
@RestController
@RequestMapping("/v1/desired_lrps")
@Tag(name = "desired LRPs", description = "What should run: create, inspect, scale and delete")
class DesiredLrpController {

    static final String CREATE_EXAMPLE = """
            {"process_guid": "web", "domain": "apps", "rootfs": "preloaded:host", "instances": 3,
             "action": {"run": {"path": "python3", "args": ["-m", "http.server"], "env": [{"name": "A", "value": "1"}],
                                "resource_limits": {"nofile": 1024}}},
             "check_definition": {"checks": [{"http_check": {"port": 8080, "path": "/"}}]},
             "ports": [8080], "memory_mb": 128, "disk_mb": 256, "routes": {"http": ["web.example.com"]}}""";

    private static final String JSON = MediaType.APPLICATION_JSON_VALUE;

    private final DesiredLrps desiredLrps;
    private final DesiredLrpRows rows;
    private final JsonBodies bodies;
    private final JsonMapper json;
    private final AutoscalerStatuses statuses;

    DesiredLrpController(DesiredLrps desiredLrps, DesiredLrpRows rows, JsonBodies bodies, JsonMapper json,
            AutoscalerStatuses statuses) {
        this.desiredLrps = desiredLrps;
        this.rows = rows;
        this.bodies = bodies;
        this.json = json;
        this.statuses = statuses;
    }

    @PostMapping
    @Operation(summary = "Desire an LRP", description = "Creates the desired LRP and its UNCLAIMED instances and "
            + "requests one auction for them. Errors: 400 InvalidJSON/InvalidLRP, 409 DesiredLRPAlreadyExists.")
    @RequestBody(content = @Content(mediaType = "application/json",
            schema = @Schema(example = CREATE_EXAMPLE)))
    @ApiResponse(responseCode = "201", content = @Content(mediaType = JSON,
            schema = @Schema(implementation = DesiredLrpResponse.class)))
    void create(HttpServletRequest request, HttpServletResponse response) throws IOException {
        DesiredLrpSnapshot created = desiredLrps.desire(DesiredLrpRequests.create(bodies.readObject(request)));
        // Written by the mapper of the API's message converter (the same JSON), without a converter's negotiation
        // and flush: with a Content-Length, the answer leaves in one piece when the request ends.
        byte[] body = json.writeValueAsBytes(DesiredLrpResponse.of(created));
        response.setStatus(HttpServletResponse.SC_CREATED);
        response.setHeader(HttpHeaders.LOCATION, "/v1/desired_lrps/" + created.definition().processGuid());
        response.setHeader(HttpHeaders.ETAG, ETags.of(created.modificationTag()));
        response.setContentType(JSON);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    @GetMapping(produces = JSON)
    @Operation(summary = "List desired LRPs, optionally of one domain", description = "With limit: one page in "
            + "process_guid order, and a Drover-Continue header carrying the token of the next page while LRPs remain.")
    @ApiResponse(responseCode = "200", content = @Content(mediaType = JSON,
            array = @ArraySchema(schema = @Schema(implementation = DesiredLrpResponse.class))))
    void list(@RequestParam(required = false) String domain,
            @Parameter(description = "page size (1-1000)") @RequestParam(required = false) String limit,
            @Parameter(description = "token from Drover-Continue") @RequestParam(name = "continue", required = false)
            String continueToken, HttpServletRequest request, HttpServletResponse response) throws IOException {
        KeysetListing.respond(request, response, new DesiredLrpList(rows, domain), domain, limit, continueToken);
    }

    @GetMapping(path = "/{processGuid}", produces = JSON)
    @Operation(summary = "Get one desired LRP", description = "ETag carries its modification tag; If-None-Match with "
            + "it answers 304 (never for an autoscaled LRP, whose autoscaling_status changes between versions). "
            + "404 DesiredLRPNotFound.")
    @ApiResponse(responseCode = "200", content = @Content(mediaType = JSON,
            schema = @Schema(implementation = DesiredLrpResponse.class)))
    void get(@PathVariable String processGuid, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        DesiredLrps.requireValidGuid(processGuid);
        if (request.getHeader(HttpHeaders.IF_NONE_MATCH) != null) {
            // A poller that already has the current version costs one index lookup of two columns.
            DesiredLrpRows.Tag current = rows.tag(processGuid)
                    .orElseThrow(() -> new DesiredLrpNotFoundException(processGuid));
            if (!current.autoscaled()
                    && JsonResponses.notModified(request, response, ETags.of(current.modificationTag()))) {
                return;
            }
        }
        DesiredLrpRow row = rows.find(processGuid).orElseThrow(() -> new DesiredLrpNotFoundException(processGuid));
        AutoscalingStatus status = row.autoscalingJson() == null ? null : statuses.status(processGuid).orElse(null);
        try (JsonGenerator json = JsonResponses.ok(response, ETags.of(row.modificationTag()))) {
            DesiredLrpJson.write(json, row, status);
        }
    }

    @PutMapping("/{processGuid}")
    @Operation(summary = "Update instances, routes, annotation or the autoscaling policy", description = "Scale up "
            + "creates instances, scale down retires the extra ones; \"autoscaling\": null removes the policy. With "
            + "If-Match (or modification_tag) a stale tag is a 409 ResourceConflict; without, the compare-and-swap is "
            + "retried and a second loss is a 409. While a policy is set, instances outside its range is a 409.")
    @RequestBody(content = @Content(mediaType = "application/json",
            schema = @Schema(example = "{\"instances\": 5, \"annotation\": \"v2\"}")))
    ResponseEntity<Void> update(@PathVariable String processGuid,
            @RequestHeader(name = "If-Match", required = false) String ifMatch, HttpServletRequest request) {
        DesiredLrps.requireValidGuid(processGuid);
        DesiredLrpRequests.Update update = DesiredLrpRequests.update(bodies.readObject(request));
        List<ModificationTag> tags = new ArrayList<>(ifMatch == null ? List.of() : ETags.parseIfMatch(ifMatch));
        if (update.modificationTag() != null) {
            tags.add(update.modificationTag());
        }
        DesiredLrpSnapshot updated = desiredLrps.update(processGuid, update, tags);
        return ResponseEntity.noContent().eTag(ETags.of(updated.modificationTag())).build();
    }

    @DeleteMapping("/{processGuid}")
    @Operation(summary = "Delete a desired LRP and retire all its instances")
    ResponseEntity<Void> delete(@PathVariable String processGuid) {
        desiredLrps.remove(processGuid);
        return ResponseEntity.noContent().build();
    }
}
