package io.drover.rep.executor;

import java.util.List;
import java.util.Set;

/**
 * What changed in an executor's usage since it was last asked ({@link Executor#usageChanges()}), for an executor whose
 * containers keep the figures of their first measurement while they run.
 *
 * @param started the figures of the containers that began running since (every running one, the first time)
 * @param ended the instance guids of the containers that stopped running since
 * @param running how many of its containers run now
 */
public record UsageChanges(List<ContainerUsage> started, Set<String> ended, int running) {

    public UsageChanges {
        started = List.copyOf(started);
        ended = Set.copyOf(ended);
    }
}
