package io.drover.receptor.deployment;

import io.drover.model.deployment.Deployment;
import io.drover.model.deployment.DeploymentLifecycle;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpNotFoundException;
import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import io.drover.receptor.web.JsonBodies;
import io.drover.receptor.web.ProcessGuids;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /v1/desired_lrps/{guid}/deployments} (SPEC 14): a POST starts a rolling deployment (a new definition, or a
 * {@code rollback_to}); GETs show them with their counts now; the verbs pause, resume, promote and cancel one. The
 * deployer in the converger moves them; every change here is audited with who asked.
 */
@RestController
@RequestMapping("/v1/desired_lrps/{processGuid}/deployments")
@Tag(name = "deployments", description = "Rolling updates of a desired LRP's definition")
class DeploymentController {

    static final String EXAMPLE = """
            {"action": {"run": {"path": "python3", "args": ["-m", "http.server"]}},
             "env": [{"name": "V", "value": "2"}],
             "max_surge": "25%", "max_unavailable": 0, "min_healthy_time": 10, "progress_deadline": 600,
             "auto_revert": true, "canary": 0}""";

    private static final Actor RECEPTOR = Actor.service("receptor");
    private static final int LISTED = 100;
    private static final Logger log = LoggerFactory.getLogger(DeploymentController.class);

    private final DeploymentLifecycle deployments;
    private final DeploymentProgress progress;
    private final JsonBodies bodies;

    DeploymentController(DeploymentLifecycle deployments, DeploymentProgress progress, JsonBodies bodies) {
        this.deployments = deployments;
        this.progress = progress;
        this.bodies = bodies;
    }

    @PostMapping
    @Operation(summary = "Start a deployment", description = "Rolls the LRP to a new definition (any of action, "
            + "monitor, check_definition, env, memory_mb, disk_mb, ports, start_timeout, max_pids, cpu_weight, "
            + "placement_tags) or back to a kept version ({\"rollback_to\": N}), by the strategy fields at the top "
            + "level. Supersedes the active deployment. 201; 400 InvalidDeployment; 404 DesiredLRPNotFound; 409 "
            + "ResourceConflict.")
    @RequestBody(content = @Content(mediaType = "application/json", schema = @Schema(example = EXAMPLE)))
    ResponseEntity<DeploymentResponse> start(@PathVariable String processGuid, HttpServletRequest request) {
        requireValidGuid(processGuid);
        DeploymentRequests.Request r = DeploymentRequests.parse(bodies.readObject(request));
        String by = user();
        Deployment d = r.rollbackTo() != null
                ? deployments.rollback(processGuid, r.rollbackTo(), r.strategy(), by, RECEPTOR)
                : deployments.start(processGuid, r.change(), r.strategy(), by, RECEPTOR);
        log.info("deployment-started process_guid={} id={} from_version={} to_version={} by={}", processGuid, d.id(),
                d.fromVersion(), d.toVersion(), by);
        return ResponseEntity.created(URI.create("/v1/desired_lrps/" + processGuid + "/deployments/" + d.id()))
                .body(view(d));
    }

    @GetMapping
    @Operation(summary = "List the LRP's latest 100 deployments, newest first, with their counts now")
    List<DeploymentResponse> list(@PathVariable String processGuid) {
        requireValidGuid(processGuid);
        return progress.latest(processGuid, LISTED).orElseThrow(() -> new DesiredLrpNotFoundException(processGuid))
                .stream().map(DeploymentResponse::of).toList();
    }

    @GetMapping("/{id}")
    @Operation(summary = "Get one deployment with its counts now (desired, updated, healthy, unhealthy)")
    DeploymentResponse get(@PathVariable String processGuid, @PathVariable String id) {
        requireValidGuid(processGuid);
        return view(deployments.find(processGuid, uuid(id)));
    }

    @PostMapping("/{id}/{verb:pause|resume|promote|cancel}")
    @Operation(summary = "Pause, resume, promote (a canary) or cancel a deployment", description = "409 "
            + "ResourceConflict when its state does not allow it.")
    DeploymentResponse verb(@PathVariable String processGuid, @PathVariable String id, @PathVariable String verb) {
        requireValidGuid(processGuid);
        UUID deployment = uuid(id);
        String by = user();
        Deployment d = switch (verb) {
            case "pause" -> deployments.pause(processGuid, deployment, by, RECEPTOR);
            case "resume" -> deployments.resume(processGuid, deployment, by, RECEPTOR);
            case "promote" -> deployments.promote(processGuid, deployment, by, RECEPTOR);
            default -> deployments.cancel(processGuid, deployment, by, RECEPTOR);
        };
        log.info("deployment-{} process_guid={} id={} by={}", verb, processGuid, deployment, by);
        return view(d);
    }

    private DeploymentResponse view(Deployment d) {
        return DeploymentResponse.of(progress.of(d));
    }

    /** Who asked, as the security filter authenticated them: the audit trail names them. */
    private static String user() {
        var auth = SecurityContextHolder.getContext().getAuthentication();
        return auth == null || auth.getName() == null ? "anonymous" : auth.getName();
    }

    private static UUID uuid(String id) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new ApiException(HttpStatus.NOT_FOUND, ApiError.DEPLOYMENT_NOT_FOUND,
                    "deployment " + id + " not found");
        }
    }

    private static void requireValidGuid(String processGuid) {
        if (!ProcessGuids.PATTERN.matcher(processGuid).matches()) {
            throw new DesiredLrpNotFoundException(processGuid);
        }
    }
}
