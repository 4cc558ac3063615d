package io.drover.receptor.actuallrp;

import io.drover.model.usage.InstanceUsage;
import io.drover.model.usage.InstanceUsages;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/actual_lrps/{guid}/metrics} (SPEC 15): what each instance uses, as its rep last sampled it. Read from
 * the table the reps write every few seconds, never from the reps themselves, so it answers as fast as any read.
 */
@RestController
@Tag(name = "actual LRPs", description = "What runs where: instances and their states")
class ActualLrpMetricsController {

    private final InstanceUsages usages;
    private final Clock clock;

    ActualLrpMetricsController(InstanceUsages usages, Clock clock) {
        this.usages = usages;
        this.clock = clock;
    }

    @GetMapping("/v1/actual_lrps/{processGuid}/metrics")
    @Operation(summary = "Usage of the instances of one process_guid (possibly none)", description = "One entry per "
            + "index whose current instance its cell has sampled (every 5 s by default): cpu_percent (of one core, "
            + "over the last sampling interval), memory_bytes, memory_limit_bytes (0: no limit), disk_bytes (the "
            + "instance directory) and uptime_s. Instances not placed, crashed or not yet sampled have no entry.")
    List<InstanceMetricsResponse> metrics(@PathVariable String processGuid) {
        if (!ActualLrpController.PROCESS_GUID.matcher(processGuid).matches()) {
            return List.of();
        }
        Instant now = clock.instant();
        return usages.current(processGuid).stream().map(u -> InstanceMetricsResponse.of(u, now)).toList();
    }

    /** One index's figures. */
    record InstanceMetricsResponse(int index, String instanceGuid, String cellId, double cpuPercent, long memoryBytes,
            long memoryLimitBytes, long diskBytes, long uptimeS) {

        static InstanceMetricsResponse of(InstanceUsage u, Instant now) {
            return new InstanceMetricsResponse(u.index(), u.instanceGuid(), u.cellId(), u.cpuPercent(),
                    u.memoryBytes(), u.memoryLimitBytes(), u.diskBytes(),
                    Math.max(0, Duration.between(u.startedAt(), now).toSeconds()));
        }
    }
}
