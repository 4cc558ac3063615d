package io.drover.rep.agent;

import io.drover.rep.cell.RepProperties;
import io.drover.rep.cell.RepProperties.ShutdownMode;
import io.drover.rep.evacuation.Evacuator;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.intake.WorkConsumer;
import io.drover.rep.presence.HeartbeatRound;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;

/**
 * The cells of this rep process, started and stopped together around one work intake. On shutdown (SIGTERM closes
 * the context) it drains every cell first when the shutdown mode is EVACUATE; this runs on the context-closed event,
 * before any bean stops, so the database, Kafka and the outbox relay are all still there for the drain.
 */
public final class CellAgents
        implements SmartLifecycle, DisposableBean, Evacuator, ApplicationListener<ContextClosedEvent> {

    private static final Logger log = LoggerFactory.getLogger(CellAgents.class);

    private final Map<String, CellAgent> agents = new LinkedHashMap<>();
    private final Function<Map<String, CellAgent>, WorkConsumer> intake;
    private final RepServices services;
    private final ShutdownMode shutdown;
    private final Duration evacuationDeadline;
    private final Duration stopGrace;
    private final Duration heartbeatInterval;
    private final Duration presenceTtl;
    private volatile ScheduledFuture<?> heartbeats;
    private volatile WorkConsumer consumer;
    private volatile boolean running;
    private volatile boolean closing;

    CellAgents(List<CellAgent> cells, Function<Map<String, CellAgent>, WorkConsumer> intake, RepServices services,
            ShutdownMode shutdown, RepProperties.Timing timing) {
        cells.forEach(a -> agents.put(a.cellId(), a));
        this.intake = intake;
        this.services = services;
        this.shutdown = shutdown;
        this.evacuationDeadline = timing.evacuationDeadline();
        this.stopGrace = timing.stopGrace();
        this.heartbeatInterval = timing.heartbeatInterval();
        this.presenceTtl = timing.presenceTtl();
        for (ContainerState state : ContainerState.values()) {
            services.metrics().registry().gauge("drover.rep.containers",
                    List.of(io.micrometer.core.instrument.Tag.of("state", state.name().toLowerCase())), this,
                    a -> a.containers(state));
        }
        services.metrics().registry().gauge("drover.rep.cells.evacuating", this,
                a -> a.agents.values().stream().filter(c -> c.isEvacuating() && !c.isDrained()).count());
        services.metrics().registry().gauge("drover.rep.cells.drained", this,
                a -> a.agents.values().stream().filter(CellAgent::isDrained).count());
    }

    /**
     * Runs {@code action} once every cell of this process has drained (a cell another rep holds has nothing to drain),
     * unless the JVM is already shutting down.
     */
    void onAllDrained(Runnable action) {
        CompletableFuture.allOf(agents.values().stream().map(a -> CompletableFuture.anyOf(a.drained(), a.taken()))
                .toArray(CompletableFuture[]::new)).thenRun(() -> {
                    if (!closing && agents.values().stream().anyMatch(a -> a.drained().isDone())) {
                        action.run();
                    }
                });
    }

    /** Runs {@code action} when another live rep turns out to hold a cell id of this process (docs/rep.md). */
    void onCellIdTaken(Runnable action) {
        agents.values().forEach(a -> a.taken().thenRun(() -> {
            if (!closing) {
                action.run();
            }
        }));
    }

    @Override
    public void start() {
        consumer = intake.apply(agents);
        agents.values().forEach(CellAgent::start);
        consumer.start();
        long interval = heartbeatInterval.toMillis();
        HeartbeatRound round = new HeartbeatRound(services.presence(),
                agents.values().stream().map(CellAgent::presence).toList(), () -> {
                    WorkConsumer intake = consumer;
                    return intake == null ? null : intake.through();
                }, presenceTtl, services.holder());
        heartbeats = services.timers().scheduleWithFixedDelay(() -> services.heartbeats().execute(round), interval,
                interval, TimeUnit.MILLISECONDS);
        running = true;
        log.info("rep-started cells={} holder={}", agents.size(), services.holder());
    }

    /** Drains the cells this process holds (one, or all of them when {@code cellId} is null). */
    @Override
    public Optional<Draining> evacuate(String cellId) {
        List<CellAgent> chosen = (cellId == null ? agents.values().stream()
                : Optional.ofNullable(agents.get(cellId)).stream()).filter(CellAgent::holdsItsCell).toList();
        if (chosen.isEmpty()) {
            return Optional.empty();
        }
        CompletableFuture<?>[] drains = chosen.stream().map(CellAgent::evacuate).toArray(CompletableFuture[]::new);
        return Optional.of(new Draining(chosen.stream().map(CellAgent::cellId).toList(), CompletableFuture.allOf(drains)));
    }

    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        closing = true;
        if (running && shutdown == ShutdownMode.STOP) {
            stopAllContainers();
        }
        if (!running || shutdown != ShutdownMode.EVACUATE) {
            return;
        }
        Optional<Draining> draining = evacuate(null);
        if (draining.isEmpty()) {
            return;
        }
        log.info("rep-shutdown-evacuating cells={} deadline={}", draining.get().cellIds().size(), evacuationDeadline);
        try {
            draining.get().done().get(evacuationDeadline.plusSeconds(30).toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            log.warn("rep-shutdown-evacuation-incomplete");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            log.warn("rep-shutdown-evacuation-failed", e);
        }
    }

    /** STOP mode: every container gets SIGTERM, the grace period, then SIGKILL; waits until none is left. */
    private void stopAllContainers() {
        log.info("rep-shutdown-stopping-containers cells={}", agents.size());
        for (CellAgent agent : agents.values().stream().filter(CellAgent::holdsItsCell).toList()) {
            agent.executors().forEach(e -> e.containers().forEach(c -> e.stop(c.instanceGuid(), stopGrace)));
        }
        long deadline = System.nanoTime() + stopGrace.plusSeconds(10).toNanos();
        while (System.nanoTime() < deadline && agents.values().stream().flatMap(a -> a.executors().stream())
                .anyMatch(e -> e.containers().stream().anyMatch(c -> c.state() == ContainerState.STARTING
                        || c.state() == ContainerState.RUNNING))) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Pauses: no intake, no ticks; a later {@link #start()} resumes (Spring's test context cache does this). */
    @Override
    public void stop() {
        running = false;
        if (heartbeats != null) {
            heartbeats.cancel(false);
        }
        if (consumer != null) {
            consumer.close();
            consumer = null;
        }
        agents.values().forEach(CellAgent::pause);
        log.info("rep-stopped cells={}", agents.size());
    }

    /**
     * For good: closes the executors (their containers keep running) and the shared threads, and lets the cells'
     * presence locks go, so the next rep process for them takes them over at once (their rows stay live until their
     * TTL, as before).
     */
    @Override
    public void destroy() {
        agents.values().forEach(CellAgent::close);
        services.commits().close();
        services.timers().shutdownNow();
        services.workers().shutdown();
        services.heartbeats().shutdown();
        try {
            // a round in flight would take the locks again
            services.heartbeats().awaitTermination(heartbeatInterval.toMillis() + 1000, TimeUnit.MILLISECONDS);
            services.presence().release(services.holder(), List.copyOf(agents.keySet()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.warn("presence-release-failed cells={} error=\"{}\" (a new rep waits for their TTL)", agents.size(),
                    e.getMessage());
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    public Optional<CellAgent> agent(String cellId) {
        return Optional.ofNullable(agents.get(cellId));
    }

    public List<CellAgent> all() {
        return List.copyOf(agents.values());
    }

    private double containers(ContainerState state) {
        return agents.values().stream().mapToLong(a -> a.executor().containers().stream()
                .filter(c -> c.state() == state).count()).sum();
    }
}
