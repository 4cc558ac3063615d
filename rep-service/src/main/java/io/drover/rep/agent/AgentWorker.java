package io.drover.rep.agent;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one cell's work serially on a pool shared by all cells: {@link #wake()} asks for a pass, passes never overlap,
 * and a wake during a pass earns exactly one more. Serial passes are what makes "one operation per container at a
 * time" hold without locks; the shared pool is what lets one JVM host a thousand cells.
 */
final class AgentWorker {

    private static final Logger log = LoggerFactory.getLogger(AgentWorker.class);

    private final Executor pool;
    private final Runnable pass;
    private final String name;
    private final AtomicInteger requests = new AtomicInteger();
    private final Set<String> failingSteps = new HashSet<>();

    AgentWorker(Executor pool, Runnable pass, String name) {
        this.pool = pool;
        this.pass = pass;
        this.name = name;
    }

    void wake() {
        if (requests.getAndIncrement() == 0) {
            try {
                pool.execute(this::run);
            } catch (RejectedExecutionException e) {
                requests.set(0);
            }
        }
    }

    /**
     * Runs one step of a pass; a step that fails (the database is unreachable) is logged at WARN once per outage, since a
     * thousand cells retrying every few seconds must not drown the log, and left for the next pass.
     */
    void step(String step, Runnable work) {
        try {
            work.run();
            failingSteps.remove(step);
        } catch (RuntimeException e) {
            if (failingSteps.add(step)) {
                log.warn("cell-step-failed cell={} step={} error=\"{}\" (will retry)", name, step, e.getMessage());
            } else {
                log.debug("cell-step-failed cell={} step={} error=\"{}\"", name, step, e.getMessage());
            }
        }
    }

    private void run() {
        int seen;
        do {
            seen = requests.get();
            try {
                pass.run();
            } catch (RuntimeException e) {
                log.warn("cell-pass-failed cell={}", name, e);
            }
        } while (requests.addAndGet(-seen) != 0);
    }
}
