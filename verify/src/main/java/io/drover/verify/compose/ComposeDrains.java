package io.drover.verify.compose;

import io.drover.verify.fault.Drains;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Drains as compose does them: {@code docker stop} sends the rep SIGTERM, and a rep drains its cell on SIGTERM (SPEC
 * 8.5: its instances start elsewhere before it stops them and exits), within {@code stop_grace_period}. The stop runs
 * on while the injector watches the cell leave; undrain waits for it to end and starts the container again.
 */
final class ComposeDrains implements Drains {

    private static final int GRACE_SECONDS = 50;

    private final Docker docker;
    private final Project project;
    private final List<String> reps;
    private final Map<Integer, Process> stopping = new ConcurrentHashMap<>();

    ComposeDrains(Docker docker, Project project, List<String> reps) {
        this.docker = docker;
        this.project = project;
        this.reps = List.copyOf(reps);
    }

    @Override
    public boolean drain(int rep, String cell) {
        stopping.put(rep, docker.start("stop", "-t", String.valueOf(GRACE_SECONDS),
                project.container(reps.get(rep))));
        return true;
    }

    @Override
    public void undrain(int rep, String cell) {
        Process stop = stopping.remove(rep);
        if (stop != null) {
            try {
                stop.waitFor(GRACE_SECONDS + 30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        project.startAndAwaitHealthy(reps.get(rep), ComposeControl.BACK);
    }
}
