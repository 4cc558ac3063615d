package io.drover.receptor.task;

import io.drover.model.json.Json;
import io.drover.model.task.TaskSnapshot;
import io.drover.model.task.TaskSubmission;
import io.drover.receptor.web.JsonBodies;
import io.drover.receptor.web.KeysetListing;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.MediaType;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code /v1/tasks}: Diego receptor v1's task endpoints, with an idempotent submit (SPEC 13). */
@RestController
@RequestMapping("/v1/tasks")
@Tag(name = "tasks", description = "Run-once work: submit, inspect, cancel and resolve")
class TaskController {

    static final String SUBMIT_EXAMPLE = """
            {"task_guid": "report-2026-03-01", "domain": "batch", "rootfs": "preloaded:host",
             "action": {"serial": {"actions": [
                 {"download": {"from": "https://example.com/tool.tgz", "to": "tool", "cache_key": "tool-v1"}},
                 {"run": {"path": "sh", "args": ["-c", "tool/run > result.txt"]}}]}},
             "memory_mb": 256, "disk_mb": 512, "result_file": "result.txt",
             "completion_callback_url": "https://example.com/tasks/done"}""";

    private final Tasks tasks;
    private final JsonBodies bodies;

    TaskController(Tasks tasks, JsonBodies bodies) {
        this.tasks = tasks;
        this.bodies = bodies;
    }

    @PostMapping
    @Operation(summary = "Submit a task", description = "Creates the task PENDING and requests an auction (201). The "
            + "same task_guid with an identical body answers 200 with the task as it is now, so a client that lost "
            + "the reply can simply retry; a different body is a 409 TaskGuidAlreadyExists. A task_guid stays known "
            + "for drover.tasks.tombstone-ttl (24 h) after its task was deleted: an identical body then answers 200 "
            + "{\"task_guid\", \"domain\", \"deleted\": true, \"deleted_at\"} and runs nothing, a different one "
            + "409. 400 InvalidJSON / InvalidTask names every bad field by its path.")
    @RequestBody(content = @Content(mediaType = "application/json", schema = @Schema(example = SUBMIT_EXAMPLE)))
    ResponseEntity<Object> submit(HttpServletRequest request) {
        TaskSubmission submission = tasks.submit(TaskRequests.create(bodies.readObject(request)));
        if (submission.wasDeleted()) {
            return ResponseEntity.ok(DeletedTaskResponse.of(submission.tombstone()));
        }
        URI location = URI.create("/v1/tasks/" + submission.task().taskGuid());
        // the task writes its own JSON (as its events do), not through the converter's reflection
        byte[] body = Json.bytes(submission.task());
        return submission.created()
                ? ResponseEntity.created(location).contentType(MediaType.APPLICATION_JSON).body(body)
                : ResponseEntity.ok().location(location).contentType(MediaType.APPLICATION_JSON).body(body);
    }

    @GetMapping(produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "List tasks, optionally by domain, cell and state", description = "state is one of "
            + "PENDING, RUNNING, COMPLETED, RESOLVING (400 InvalidRequest otherwise). Paged like the LRP lists: with "
            + "limit, one page in task_guid order and a Drover-Continue header carrying the token of the next page "
            + "(continue=...) while tasks remain; a token of another list or filter is a 400 InvalidRequest.")
    @ApiResponse(responseCode = "200", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
            array = @ArraySchema(schema = @Schema(implementation = TaskSnapshot.class))))
    void list(@RequestParam(required = false) String domain,
            @RequestParam(name = "cell_id", required = false) String cellId,
            @RequestParam(required = false) String state,
            @Parameter(description = "page size (1-1000)") @RequestParam(required = false) String limit,
            @Parameter(description = "token from Drover-Continue") @RequestParam(name = "continue", required = false)
            String continueToken, HttpServletRequest request, HttpServletResponse response) throws IOException {
        KeysetListing.respond(request, response, tasks.listing(domain, cellId, state), domain, limit, continueToken);
    }

    @GetMapping("/{taskGuid}")
    @Operation(summary = "Get one task", description = "404 TaskNotFound.")
    TaskSnapshot get(@PathVariable String taskGuid) {
        return tasks.get(taskGuid);
    }

    @PostMapping("/{taskGuid}/cancel")
    @Operation(summary = "Cancel a task", description = "A PENDING or RUNNING task becomes COMPLETED, failed, "
            + "\"cancelled\", and its process is stopped; cancelling it again is harmless. 404 TaskNotFound, 409 "
            + "TaskNotCancelable when it completed otherwise.")
    TaskSnapshot cancel(@PathVariable String taskGuid) {
        return tasks.cancel(taskGuid);
    }

    @DeleteMapping("/{taskGuid}")
    @Operation(summary = "Resolve (delete) a completed task", description = "Only a COMPLETED task: it is resolved and "
            + "deleted (204). 404 TaskNotFound, 409 TaskNotDeletable otherwise (also while its completion callback "
            + "holds it RESOLVING).")
    ResponseEntity<Void> delete(@PathVariable String taskGuid) {
        tasks.delete(taskGuid);
        return ResponseEntity.noContent().build();
    }
}
