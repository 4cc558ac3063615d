package io.drover.rep.executor;

import java.util.List;
import java.util.Set;

/**
 * What one container printed and what the rep did with it, as timestamped {@link LogLine}s: the process executor keeps
 * a size-capped journal per instance, the simulated executor has only its synthetic lifecycle lines.
 */
public interface InstanceLog {

    /** The last {@code lines} lines of the given sources, oldest first. */
    List<LogLine> tail(int lines, Set<LogSource> sources);

    /**
     * The last {@code lines} lines of the given sources, then each later one as it is written, until the instance is
     * gone (stopped or crashed) or the follower is closed. No line is lost or repeated between the tail and the rest.
     */
    LogFollower follow(int lines, Set<LogSource> sources, int buffer);
}
