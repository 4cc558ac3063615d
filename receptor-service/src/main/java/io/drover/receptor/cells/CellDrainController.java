package io.drover.receptor.cells;

import io.drover.model.cell.Cell;
import io.drover.model.cell.CellDrains;
import io.drover.model.lrp.Actor;
import io.drover.receptor.validation.FieldErrors;
import io.drover.receptor.validation.JsonFields;
import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.JsonBodies;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /v1/cells/{cell_id}/drain} and {@code DELETE} of it (SPEC 18): an operator's order that the cell drain,
 * stored on its row ({@link CellDrains}), which its rep reads with its heartbeats and carries out as SPEC 8.5's drain,
 * staying DRAINED when done; the DELETE withdraws it. Both are audited with who asked.
 */
@RestController
@Tag(name = "cells", description = "The machines that run instances")
class CellDrainController {

    /** The longest deadline a drain may name: a week (a larger figure is likely milliseconds by mistake). */
    static final long MAX_DEADLINE_S = 7 * 24 * 3600;

    private static final Actor RECEPTOR = Actor.service("receptor");
    private static final Logger log = LoggerFactory.getLogger(CellDrainController.class);

    private final CellDrains drains;
    private final CellViews views;
    private final JsonBodies bodies;

    CellDrainController(CellDrains drains, CellViews views, JsonBodies bodies) {
        this.drains = drains;
        this.views = views;
        this.bodies = bodies;
    }

    @PostMapping("/v1/cells/{cellId}/drain")
    @Operation(summary = "Drain a cell", description = "The cell takes no new work from now on; its rep hands every "
            + "instance over (each new instance RUNNING elsewhere before the old one stops), lets its tasks finish "
            + "until the deadline (then fails them: \"cell evacuated before completion\"), and the cell stays "
            + "DRAINED, heartbeating and taking no work, until DELETE. Body optional: {\"deadline\": seconds, 1 to "
            + "604800}; default the rep's evacuation deadline (10 min unless configured). A cell already draining "
            + "keeps its drain, with the new deadline if one is given. 202 with the cell; 400 InvalidRequest; 404 "
            + "CellNotFound; 409 CellGone (its rep is gone: its presence expired).")
    @RequestBody(required = false, content = @Content(mediaType = "application/json",
            schema = @Schema(example = "{\"deadline\": 600}")))
    ResponseEntity<CellResponse> drain(@PathVariable String cellId, HttpServletRequest request) {
        Duration deadline = deadline(bodies.readOptionalObject(request));
        String by = user();
        Cell cell = drains.drain(cellId, deadline, by, RECEPTOR);
        log.info("cell-drain-requested cell={} deadline_at={} by={}", cellId, cell.drain().deadlineAt(), by);
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(views.of(cell));
    }

    @DeleteMapping("/v1/cells/{cellId}/drain")
    @Operation(summary = "Undrain a cell", description = "Withdraws the cell's drain: it is ACTIVE and takes work "
            + "again (what it handed over stays where it went). A cell whose drain is still under way is ACTIVE once "
            + "its rep hears of it, within a heartbeat. 200 with the cell; 404 CellNotFound.")
    CellResponse undrain(@PathVariable String cellId) {
        String by = user();
        Cell cell = drains.undrain(cellId, by, RECEPTOR);
        log.info("cell-undrained cell={} by={}", cellId, by);
        return views.of(cell);
    }

    /** The body's deadline (null: none given); anything but a whole number of seconds in range is InvalidRequest. */
    static Duration deadline(JsonNode body) {
        List<String> errors = new ArrayList<>();
        JsonFields f = new JsonFields(body, "", errors);
        f.rejectUnknown(Set.of("deadline"));
        Integer seconds = f.integer("deadline", false, 1, MAX_DEADLINE_S);
        FieldErrors.throwIfAny(ApiError.INVALID_REQUEST, errors);
        return seconds == null ? null : Duration.ofSeconds(seconds);
    }

    /** Who asked, as the security filter authenticated them: the audit trail names them. */
    private static String user() {
        var auth = SecurityContextHolder.getContext().getAuthentication();
        return auth == null || auth.getName() == null ? "anonymous" : auth.getName();
    }
}
