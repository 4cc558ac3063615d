package io.drover.rep.executor.simulated;

import io.drover.rep.executor.InstanceLog;
import io.drover.rep.executor.LogFollower;
import io.drover.rep.executor.LogLine;
import io.drover.rep.executor.LogSource;
import java.util.List;
import java.util.Set;

/**
 * A simulated container's log: it runs no process, so it has only the rep's lifecycle lines, made from the moments
 * the container recorded (nothing is stored per line, so a hundred thousand simulated instances cost no memory).
 */
final class SimulatedLog implements InstanceLog {

    private final SimulatedContainer container;

    SimulatedLog(SimulatedContainer container) {
        this.container = container;
    }

    @Override
    public List<LogLine> tail(int lines, Set<LogSource> sources) {
        List<LogLine> all = container.lifecycleLines().stream().filter(l -> sources.contains(l.source())).toList();
        return all.subList(Math.max(0, all.size() - Math.max(0, lines)), all.size());
    }

    @Override
    public LogFollower follow(int lines, Set<LogSource> sources, int buffer) {
        synchronized (container) {
            List<LogLine> tail = tail(lines, sources);
            LogFollower follower = new LogFollower(tail.size() + buffer);
            tail.forEach(follower::offer);
            if (container.isOver()) {
                follower.end();
            } else {
                container.addFollower(follower, sources.contains(LogSource.REP));
            }
            return follower;
        }
    }
}
