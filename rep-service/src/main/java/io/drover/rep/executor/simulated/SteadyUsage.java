package io.drover.rep.executor.simulated;

import io.drover.rep.executor.ContainerUsage;
import io.drover.rep.executor.UsageChanges;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The account of a simulated cell's usage changes between two sampling rounds: containers that began running, those
 * that stopped, and how many run. Kept only once a round has asked (a rep without usage sampling keeps nothing), and
 * only since the last round: a hundred thousand containers that run on cost nothing here.
 */
final class SteadyUsage {

    private boolean asked;
    private int running;
    private Map<String, ContainerUsage> started = new LinkedHashMap<>();
    private Set<String> ended = new HashSet<>();

    synchronized void started(ContainerUsage usage) {
        running++;
        if (asked) {
            started.put(usage.instanceGuid(), usage);
            ended.remove(usage.instanceGuid());
        }
    }

    synchronized void ended(String instanceGuid) {
        running--;
        if (asked && started.remove(instanceGuid) == null) {
            ended.add(instanceGuid);
        }
    }

    /** What changed since the last call; the first call gives {@code everyRunning} (asked outside the lock). */
    UsageChanges drain(Supplier<List<ContainerUsage>> everyRunning) {
        synchronized (this) {
            if (asked) {
                UsageChanges changes = new UsageChanges(new ArrayList<>(started.values()), ended, running);
                started = new LinkedHashMap<>();
                ended = new HashSet<>();
                return changes;
            }
            asked = true;
        }
        // A container that starts meanwhile is in both this list and the next call's: written twice, harmlessly.
        List<ContainerUsage> all = everyRunning.get();
        synchronized (this) {
            return new UsageChanges(all, Set.of(), running);
        }
    }
}
