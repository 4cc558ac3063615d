package io.drover.receptor.logs;

import io.drover.model.cell.Cell;
import io.drover.model.cell.CellPresence;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.read.ActualLrpRow;
import io.drover.model.read.ActualLrpRows;
import io.drover.model.read.PreviousInstances;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskSnapshot;
import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import io.drover.receptor.web.ProcessGuids;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.io.InputStream;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;

/**
 * {@code GET /v1/actual_lrps/{guid}/index/{i}/logs} (SPEC 15): an instance's log lines, read from the log server of
 * the cell it is on and streamed through, or with {@code previous=true} those of the index's previous incarnation
 * (found in the audit trail, served by the cell it ran on while that cell keeps it); {@code GET /v1/tasks/{guid}/logs}
 * the same for a task, running or finished, from the cell it ran on. The record and the cell are looked up first (no
 * database connection is held while streaming), then the cell is asked, so every error answers before the first line.
 */
@RestController
@EnableConfigurationProperties(LogsProperties.class)
@Tag(name = "actual LRPs")
class LogController implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LogController.class);

    private final ActualLrpRows actuals;
    private final PreviousInstances previous;
    private final TaskReads tasks;
    private final CellPresence cells;
    private final CellLogClient client;
    private final LogRelay relay;

    LogController(ActualLrpRows actuals, TaskReads tasks, CellPresence cells, LogsProperties properties,
            @Value("${drover.logs.secret:#{null}}") String secret, PreviousInstances previous) {
        this.actuals = actuals;
        this.previous = previous;
        this.tasks = tasks;
        this.cells = cells;
        this.client = new CellLogClient(properties, secret);
        this.relay = new LogRelay(properties.maxStreams(), properties.followTimeout());
    }

    @GetMapping("/v1/actual_lrps/{processGuid}/index/{index}/logs")
    @Operation(summary = "An instance's log", description = "text/plain, one line each: `<UTC timestamp> [<source>] "
            + "<text>`, sources stdout, stderr and rep (the rep's lifecycle lines: claimed, started, health check, "
            + "crashed with reason, stopped). The last `tail` lines, and with follow=true every later line (chunked) "
            + "until the instance stops or drover.receptor.logs.follow-timeout passes. With previous=true, the last "
            + "lines of the index's previous instance (the one that crashed, stopped or was replaced last), served "
            + "by the cell it ran on while that cell keeps them (drover.rep.logs.keep-for, 1 h, within the cell's "
            + "byte bound). 404 ActualLRPIndexNotFound (also: no previous instance), 409 InstanceNotOnCell (not on a "
            + "cell yet, or no more; or its cell keeps its lines no more), 502 CellUnreachable, 400 InvalidRequest.",
            responses = {
                    @ApiResponse(responseCode = "200", content = @Content(mediaType = "text/plain",
                            schema = @Schema(type = "string"))),
                    @ApiResponse(responseCode = "404", content = @Content(schema = @Schema(implementation = ApiError.class))),
                    @ApiResponse(responseCode = "409", content = @Content(schema = @Schema(implementation = ApiError.class))),
                    @ApiResponse(responseCode = "502", content = @Content(schema = @Schema(implementation = ApiError.class))) })
    ResponseEntity<ResponseBodyEmitter> logs(@PathVariable String processGuid, @PathVariable int index,
            @Parameter(description = "lines before following, 0-100000 (default 100)") @RequestParam(required = false) String tail,
            @Parameter(description = "true: stream later lines until the instance stops") @RequestParam(required = false) String follow,
            @Parameter(description = "stdout, stderr or rep; all without") @RequestParam(required = false) String stream,
            @Parameter(description = "true: the index's previous instance") @RequestParam(required = false)
            String previous) {
        LogQuery query = LogQuery.of(tail, follow, stream);
        if (LogQuery.flag("previous", previous)) {
            return previous(processGuid, index, query);
        }
        ActualLrpRow lrp = find(processGuid, index);
        if (lrp.cellId() == null || lrp.state() == ActualLrpState.UNCLAIMED
                || lrp.state() == ActualLrpState.CRASHED) {
            throw new ApiException(HttpStatus.CONFLICT, CellLogClient.INSTANCE_NOT_ON_CELL, "instance " + index
                    + " of " + processGuid + " is " + lrp.state() + " and on no cell, so it has no log yet");
        }
        log.debug("logs-relay process_guid={} index={} cell={} follow={}", processGuid, index, lrp.cellId(),
                query.follow());
        return relay(lrp.cellId(), lrp.instanceGuid(), query);
    }

    /** The last lines of the index's previous incarnation, from the cell it ran on. */
    private ResponseEntity<ResponseBodyEmitter> previous(String processGuid, int index, LogQuery query) {
        if (!ProcessGuids.isValid(processGuid) || index < 0) {
            throw notFound(processGuid, index);
        }
        ActualLrpKey key = ActualLrpKey.of(processGuid, index);
        String current = actuals.find(key).map(ActualLrpRow::instanceGuid).orElse(null);
        PreviousInstances.Ended ended = previous.before(key, current).orElseThrow(() -> new ApiException(
                HttpStatus.NOT_FOUND, ApiError.ACTUAL_LRP_INDEX_NOT_FOUND, "index " + index + " of " + processGuid
                        + " has had no previous instance on a cell"));
        log.debug("logs-relay-previous process_guid={} index={} cell={} instance_guid={}", processGuid, index,
                ended.cellId(), ended.instanceGuid());
        return relay(ended.cellId(), ended.instanceGuid(), query);
    }

    @GetMapping("/v1/tasks/{taskGuid}/logs")
    @Tag(name = "tasks")
    @Operation(summary = "A task's log", description = "Like an instance's log (text/plain, sources stdout, "
            + "stderr and rep; a task's emit_progress messages are rep lines), served by the cell it runs or ran on: "
            + "while it runs, and once it ended for as long as the task exists and that cell keeps its lines "
            + "(drover.rep.logs.keep-for, 1 h, within the cell's byte bound). 404 TaskNotFound, 409 InstanceNotOnCell "
            + "(never on a cell: not started yet, or failed before; or its cell keeps its lines no more), "
            + "502 CellUnreachable (also: its cell is gone), 400 InvalidRequest.",
            responses = {
                    @ApiResponse(responseCode = "200", content = @Content(mediaType = "text/plain",
                            schema = @Schema(type = "string"))),
                    @ApiResponse(responseCode = "404", content = @Content(schema = @Schema(implementation = ApiError.class))),
                    @ApiResponse(responseCode = "409", content = @Content(schema = @Schema(implementation = ApiError.class))),
                    @ApiResponse(responseCode = "502", content = @Content(schema = @Schema(implementation = ApiError.class))) })
    ResponseEntity<ResponseBodyEmitter> taskLogs(@PathVariable String taskGuid,
            @Parameter(description = "lines before following, 0-100000 (default 100)") @RequestParam(required = false) String tail,
            @Parameter(description = "true: stream later lines until the task ends") @RequestParam(required = false) String follow,
            @Parameter(description = "stdout, stderr or rep; all without") @RequestParam(required = false) String stream) {
        LogQuery query = LogQuery.of(tail, follow, stream);
        TaskSnapshot task = (ProcessGuids.isValid(taskGuid) ? tasks.find(taskGuid) : Optional
                .<TaskSnapshot>empty()).orElseThrow(() -> new ApiException(HttpStatus.NOT_FOUND,
                        ApiError.TASK_NOT_FOUND, "task not found: " + taskGuid));
        if (task.cellId() == null) {
            throw new ApiException(HttpStatus.CONFLICT, CellLogClient.INSTANCE_NOT_ON_CELL, "task " + taskGuid
                    + " is " + task.state() + " and never ran on a cell, so it has no log");
        }
        log.debug("logs-relay task_guid={} cell={} follow={}", taskGuid, task.cellId(), query.follow());
        // a task's container is named by the task's epoch (its one run) on its cell
        return relay(task.cellId(), task.modificationTag().epoch().toString(), query);
    }

    /** Opens the cell's stream (every error answers before the first line) and relays it on a thread of its own. */
    private ResponseEntity<ResponseBodyEmitter> relay(String cellId, String instanceGuid, LogQuery query) {
        String endpoint = cells.find(cellId).map(Cell::registration).map(r -> r.logEndpoint()).orElseThrow(
                () -> CellLogClient.unreachable("cell " + cellId + " is gone or serves no logs"));
        if (!relay.reserve()) {
            throw new ApiException(HttpStatus.TOO_MANY_REQUESTS, ApiError.INVALID_REQUEST,
                    "too many log streams on this receptor; retry later or use another receptor");
        }
        InputStream in;
        try {
            in = client.open(cellId, endpoint, instanceGuid, query);
        } catch (RuntimeException e) {
            relay.release();
            throw e;
        }
        return ResponseEntity.ok().contentType(LogRelay.TEXT).header("Cache-Control", "no-store")
                .header("X-Accel-Buffering", "no").body(relay.relay(in));
    }

    @Override
    public void close() {
        relay.close();
    }

    private ActualLrpRow find(String processGuid, int index) {
        if (!ProcessGuids.isValid(processGuid) || index < 0) {
            throw notFound(processGuid, index);
        }
        return actuals.find(ActualLrpKey.of(processGuid, index)).orElseThrow(() -> notFound(processGuid, index));
    }

    private static ApiException notFound(String processGuid, int index) {
        return new ApiException(HttpStatus.NOT_FOUND, ApiError.ACTUAL_LRP_INDEX_NOT_FOUND,
                "actual LRP not found: " + processGuid + " index " + index);
    }
}
