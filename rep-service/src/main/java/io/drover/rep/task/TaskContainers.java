package io.drover.rep.task;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.messaging.TasksPlaced;
import io.drover.model.task.TaskDefinition;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerSpec;
import java.util.UUID;

/**
 * How a task becomes a container: one instance (index 0, keyed by the task guid) of a definition with the task's
 * action, env and resources, no ports and no health checks, whose incarnation is the task's epoch (a task runs once, so
 * its epoch names its one run).
 */
final class TaskContainers {

    private TaskContainers() {
    }

    static ContainerSpec spec(TaskDefinition d, UUID epoch) {
        DesiredLrpDefinition definition = new DesiredLrpDefinition(d.taskGuid(), d.domain(), d.rootfs(), 1, d.action(),
                null, null, 0, d.env(), java.util.List.of(), d.memoryMb(), d.diskMb(), d.maxPids(), d.cpuWeight(),
                d.placementTags(), null, d.annotation(), d.logGuid(), d.metricsGuid());
        return new ContainerSpec(ActualLrpKey.of(d.taskGuid(), 0), instanceGuid(epoch), definition);
    }

    /** A task's one container is named by the task's epoch. */
    static String instanceGuid(UUID epoch) {
        return epoch.toString();
    }

    static String taskGuid(Container container) {
        return container.key().processGuid();
    }

    /** What a placed task takes of its cell: its memory, its disk and one container. */
    static Resources need(TasksPlaced.TaskPlacement placement) {
        return new Resources(placement.memoryMb(), placement.diskMb(), 1);
    }
}
