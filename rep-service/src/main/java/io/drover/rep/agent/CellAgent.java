package io.drover.rep.agent;

import io.drover.model.cell.DrainOrder;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.messaging.TasksPlaced;
import io.drover.model.time.Instants;
import io.drover.rep.cell.Allocations;
import io.drover.rep.cell.CellSettings;
import io.drover.rep.evacuation.Drain;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerEvent;
import io.drover.rep.executor.ContainerListener;
import io.drover.rep.executor.Executor;
import io.drover.rep.intake.Parts;
import io.drover.rep.intake.Placements;
import io.drover.rep.intake.WorkSink;
import io.drover.rep.presence.Presence;
import io.drover.rep.sync.Reconciler;
import io.drover.rep.sync.SyncPass;
import io.drover.rep.task.CellTasks;
import io.drover.rep.writes.Operations;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cell: its presence, its executor and its work. Everything it is told (placements, stop requests, container
 * events, timer ticks) is queued and handled in serial passes on the shared worker pool, in this order: heartbeat,
 * container events, stop requests, placements, its tasks ({@link CellTasks}), sync (instances, then tasks). A pass
 * that fails (the database is unreachable) leaves its work queued for the next one; the containers keep running
 * meanwhile. Work from the intake is done (its message may be committed) once a pass handled it.
 */
public final class CellAgent implements WorkSink, ContainerListener {

    private static final Logger log = LoggerFactory.getLogger(CellAgent.class);

    private final CellSettings settings;
    private final Executor executor;
    private final RepServices services;
    private final Operations ops;
    private final Allocations allocations;
    private final Reconciler reconciler;
    private final SyncPass syncPass;
    private final Placements placements;
    private final CellTasks tasks;
    private final AgentWorker worker;
    private final Queue<Placed> placed = new ConcurrentLinkedQueue<>();
    /** When the oldest placement of the batch in hand was made; null when none is in hand. */
    private volatile Instant inHandSince;
    private final Queue<Stop> stops = new ConcurrentLinkedQueue<>();
    private final Set<String> changed = ConcurrentHashMap.newKeySet();
    private final Presence presence;
    private final Drain drain;
    private final CompletableFuture<Void> taken = new CompletableFuture<>();
    private volatile boolean heartbeatDue;
    private volatile boolean adoptDue;
    private volatile boolean syncDue;
    private volatile boolean closed;
    private boolean listening;
    private ScheduledFuture<?> syncTimer;
    private ScheduledFuture<?> presenceTimer;

    CellAgent(CellSettings settings, Executor executor, Executor taskExecutor, RepServices services) {
        this.settings = settings;
        this.executor = executor;
        this.services = services;
        this.ops = new Operations(services.commits(), services.lifecycle(), services.metrics(), settings.cellId());
        this.allocations = new Allocations(settings.capacity());
        this.reconciler = new Reconciler(executor, ops, allocations, settings.cellId(), new Reconciler.StopTiming(
                settings.timing().stopGrace(), settings.timing().deregistrationDelay(), services.timers()));
        this.syncPass = new SyncPass(settings.cellId(), executor, services.records(), reconciler, services.metrics(),
                settings.batchSize());
        this.placements = new Placements(executor, ops, allocations, services.definitions(), services.ids(),
                services.metrics(), settings.cellId());
        this.worker = new AgentWorker(services.workers(), this::pass, settings.cellId());
        this.tasks = new CellTasks(settings.cellId(), taskExecutor, services.tasks(), services.commits(), allocations,
                worker::wake, settings.timing().stopGrace(), services.clock());
        this.presence = new Presence(services.presence(), services.drains(), settings, services.metrics(),
                services.holder(), new PresenceAgent());
        this.drain = new Drain(services.clock(), settings.timing().evacuationDeadline());
    }

    /**
     * Announces the cell, and once this process holds its presence adopts what a previous run left and reconciles at
     * once; then heartbeats and syncs. Also resumes a paused agent (adopting again is harmless: it returns what the
     * executor holds).
     */
    void start() {
        closed = false;
        presence.resume();
        if (!listening) {
            executor.addListener(this);
            listening = true;
        }
        // The first heartbeat goes with the first pass, before the cell reconciles; later ones are the process's
        // heartbeat round (CellAgents), off the cells' passes, so a cell whose work queues up (a burst, a slow
        // database) does not look dead for it.
        heartbeatDue = true;
        adoptDue = true;
        syncDue = true;
        worker.wake();
    }

    /**
     * Takes up what a previous rep of this cell left on the machine. Only once the cell's presence is held: a rep whose
     * cell id another live rep holds must not touch that rep's containers.
     */
    private void adopt() {
        List<Container> adopted = executor.adopt();
        adopted.forEach(c -> changed.add(c.instanceGuid()));
        try {
            placements.reserveAdopted(adopted);
        } catch (RuntimeException e) {
            log.warn("adopt-reservation-failed cell={} error=\"{}\"", cellId(), e.getMessage());
        }
        log.info("adopt-containers cell={} count={}", cellId(), adopted.size());
        tasks.start();
    }

    @Override
    public void placed(List<LrpsPlaced.Placement> placements, Instant placedAt, Runnable done) {
        Runnable each = Parts.of(placements.size(), done);
        placements.forEach(p -> placed.add(new Placed(p, placedAt, each)));
        worker.wake();
    }

    /**
     * When the oldest placement this cell has not taken up yet was made (queued, or in the pass at hand); null when
     * there is none. The queue is in arrival order, and a batch that failed stays "in hand" until a pass takes it
     * again, so the head and the batch in hand hold the oldest.
     */
    Instant oldestPlacement() {
        Placed head = placed.peek();
        return Instants.earlier(inHandSince, head == null ? null : head.at());
    }

    @Override
    public void tasksPlaced(List<TasksPlaced.TaskPlacement> placements, Runnable done) {
        tasks.placed(placements, Parts.of(placements.size(), done));
    }

    @Override
    public void taskCancelled(String taskGuid, Runnable done) {
        tasks.cancelRequested(taskGuid, done);
    }

    @Override
    public void stopRequested(LrpStopRequested request, Runnable done) {
        stops.add(new Stop(request, done));
        worker.wake();
    }

    @Override
    public void onEvent(ContainerEvent event) {
        changed.add(event.container().instanceGuid());
        worker.wake();
    }

    /**
     * Follows an operator's drain order as a heartbeat read it from the cell's row (SPEC 18): drains until its deadline
     * and then stays DRAINED, or (null) takes work again. A withdrawn order is beaten at once, so that the auctioneer,
     * which waits for the cell to say ACTIVE, does not wait a heartbeat interval for it.
     */
    private void drainOrdered(DrainOrder order) {
        if (!drain.order(order == null ? null : order.deadlineAt())) {
            return;
        }
        if (order != null) {
            log.info("drain-ordered cell={} deadline={} by={}", cellId(), order.deadlineAt(), order.requestedBy());
        } else {
            log.info("drain-withdrawn cell={}", cellId());
            if (!drain.started()) {
                presence.resumeWork();
                heartbeatDue = true;
            }
        }
        syncDue = true;
        worker.wake();
    }

    /** Starts draining (idempotent): completes once every container has been handed over or the deadline passed. */
    public CompletableFuture<Void> evacuate() {
        if (drain.begin()) {
            log.info("evacuate-cell cell={} deadline={}", cellId(), drain.deadline());
        }
        syncDue = true;
        worker.wake();
        return drain.done();
    }

    public boolean isEvacuating() {
        return drain.started();
    }

    /** An operator's drain of the cell is done: it stays, taking no work, until it is undrained. */
    public boolean isDrained() {
        return presence.isDrained();
    }

    public CompletableFuture<Void> drained() {
        return drain.done();
    }

    /** Completes when another live rep turns out to hold this cell id: this agent then does nothing for good. */
    public CompletableFuture<Void> taken() {
        return taken;
    }

    /** Whether this process holds the cell's presence, so the cell does its work. */
    public boolean holdsItsCell() {
        return presence.standing() == Presence.Standing.HELD;
    }

    private void cellIdTaken() {
        placed.clear();
        stops.clear();
        changed.clear();
        cancel(syncTimer);
        cancel(presenceTimer);
        taken.complete(null);
    }

    public String cellId() {
        return settings.cellId();
    }

    public Executor executor() {
        return executor;
    }

    /** The cell's executors: its instances', then its tasks'. */
    public List<Executor> executors() {
        return List.of(executor, tasks.executor());
    }

    /** Stops ticking and handling work until {@link #start()} again; containers keep running, events stay queued. */
    void pause() {
        closed = true;
        presence.pause();
        cancel(syncTimer);
        cancel(presenceTimer);
    }

    /** This cell's part of the process's heartbeat round (silent while paused, and once drained). */
    Presence presence() {
        return presence;
    }

    /** For good: also closes the executor, which leaves its containers running (to be adopted by the next rep). */
    void close() {
        pause();
        executor.close();
        tasks.close();
    }

    private void pass() {
        if (closed || presence.standing() == Presence.Standing.REFUSED) {
            return;
        }
        // work for a cell ordered to drain: the order may be gone by now (an undrained cell takes work at once)
        boolean askAgain = drain.ordered() && !placed.isEmpty();
        if (heartbeatDue || askAgain || presence.standing() != Presence.Standing.HELD) {
            heartbeatDue = false;
            if (!presence.acquire()) {
                retryPresence();
                return;
            }
        }
        if (adoptDue) {
            adoptDue = false;
            adopt();
        }
        worker.step("container-events", this::handleContainerEvents);
        worker.step("stop-requests", this::handleStopRequests);
        worker.step("placements", this::handlePlacements);
        worker.step("tasks", () -> tasks.pass(isEvacuating()));
        if (syncDue) {
            syncDue = false;
            worker.step("sync", this::sync);
            worker.step("task-sync", () -> tasks.sync(drain.mode() == Drain.Mode.DEADLINE_PASSED));
            scheduleSync();
        }
        if (isEvacuating()) {
            finishEvacuationIfDone();
        }
    }

    private void handleContainerEvents() {
        List<String> guids = new ArrayList<>(changed);
        changed.removeAll(guids);
        try {
            reconciler.apply(reconciler.forEvents(guids, isEvacuating()), settings.batchSize());
        } catch (RuntimeException e) {
            changed.addAll(guids);
            throw e;
        }
    }

    private void handleStopRequests() {
        Stop stop;
        while ((stop = stops.peek()) != null) {
            reconciler.stopRequested(stop.request());
            stops.poll();
            stop.done().run();
        }
    }

    private void handlePlacements() {
        Placed head = placed.peek();
        if (head == null) {
            return;
        }
        // in hand before the queue is drained, so that a heartbeat in between never sees neither
        Instant oldest = Instants.earlier(inHandSince, head.at());
        inHandSince = oldest;
        List<Placed> batch = new ArrayList<>();
        Placed p;
        while ((p = placed.poll()) != null) {
            batch.add(p);
            oldest = Instants.earlier(oldest, p.at());
        }
        inHandSince = oldest;
        try {
            placements.handle(batch.stream().map(Placed::placement).toList(), isEvacuating(), settings.batchSize());
            inHandSince = null;
            batch.forEach(handled -> handled.done().run());
        } catch (RuntimeException e) {
            placed.addAll(batch);
            throw e;
        }
    }

    /** A placement queued on the cell, with when it was made and what to run once it is handled. */
    private record Placed(LrpsPlaced.Placement placement, Instant at, Runnable done) {
    }

    /** A stop request queued on the cell, with what to run once it is handled. */
    private record Stop(LrpStopRequested request, Runnable done) {
    }

    private void sync() {
        Drain.Mode mode = drain.mode();
        if (mode != Drain.Mode.NORMAL) {
            presence.announceEvacuation();
        }
        syncPass.run(mode);
        drain.synced(mode);
    }

    private void finishEvacuationIfDone() {
        int left = executor.containers().size() + tasks.containers();
        if (drain.readyToRest(left) && !presence.isDrained()) {
            rest();
            return;
        }
        if (!drain.readyToFinish(left)) {
            return;
        }
        try {
            presence.leave();
            log.info("evacuation-complete cell={}", cellId());
            drain.done().complete(null);
        } catch (RuntimeException e) {
            log.warn("evacuation-presence-removal-failed cell={} error=\"{}\"", cellId(), e.getMessage());
        }
    }

    /** An operator's drain is done: the cell stays, DRAINED, heartbeating and taking no work until it is undrained. */
    private void rest() {
        try {
            if (presence.announceDrained()) {
                log.info("drain-complete cell={} (DRAINED: heartbeating, taking no work until undrained)", cellId());
            }
        } catch (RuntimeException e) {
            log.warn("drain-complete-failed cell={} error=\"{}\"", cellId(), e.getMessage());
        }
    }

    /** Not held yet (the database is away, or another holder's lock lasts): try again later, doing nothing else. */
    private void retryPresence() {
        if (closed || presence.standing() == Presence.Standing.REFUSED) {
            return;
        }
        cancel(presenceTimer);
        presenceTimer = services.timers().schedule(() -> {
            heartbeatDue = true;
            worker.wake();
        }, Math.max(1, presence.retryIn(services.clock().instant()).toMillis()), TimeUnit.MILLISECONDS);
    }

    private void scheduleSync() {
        if (closed || drain.done().isDone()) {
            return;
        }
        Duration interval = isEvacuating() && !presence.isDrained() ? settings.timing().evacuatingSyncInterval()
                : settings.timing().syncInterval();
        // A little jitter keeps a thousand cells of one process from syncing in lock-step.
        long delayMs = (long) (interval.toMillis() * ThreadLocalRandom.current().nextDouble(0.9, 1.1));
        Instant deadline = drain.deadline();
        if (deadline != null && deadline.isAfter(services.clock().instant())) {
            // Wake at the deadline itself rather than up to an interval after it.
            delayMs = Math.min(delayMs, Duration.between(services.clock().instant(), deadline).toMillis() + 1);
        }
        cancel(syncTimer);
        syncTimer = services.timers().schedule(() -> {
            syncDue = true;
            worker.wake();
        }, Math.max(1, delayMs), TimeUnit.MILLISECONDS);
    }

    /** What the cell's presence asks of it and tells it. */
    private final class PresenceAgent implements Presence.Agent {

        @Override
        public Instant oldestPlacement() {
            return CellAgent.this.oldestPlacement();
        }

        @Override
        public void cellIdTaken() {
            CellAgent.this.cellIdTaken();
        }

        @Override
        public void drainOrdered(DrainOrder order) {
            CellAgent.this.drainOrdered(order);
        }
    }

    private static void cancel(ScheduledFuture<?> timer) {
        if (timer != null) {
            timer.cancel(false);
        }
    }
}
