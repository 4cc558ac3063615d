package io.drover.verify.fault;

import io.drover.model.json.Json;
import io.drover.verify.check.FaultKinds;
import io.drover.verify.history.Entry;
import io.drover.verify.history.HistoryFile;
import io.drover.verify.history.RunClock;
import io.drover.verify.observe.Processes;
import io.drover.verify.workload.ApiClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out a {@link FaultPlan} on a thread of its own: each fault starts at its time and is healed after its length
 * (a drain once its cell has left, at most after its length), and recorded with its start and end. Where the cluster's
 * heals take long (a container started again is healed when it serves), each heal runs on a thread of its own, so that
 * one waiting heal holds up no other fault's start or heal. {@link #healAll} ends what still runs.
 */
public final class FaultInjector implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FaultInjector.class);

    private final ClusterControl control;
    private final Drains drains;
    private final ApiClient api;
    private final String marker;
    private final HistoryFile history;
    private final RunClock clock;
    private final Random random;
    private final List<Active> active = new CopyOnWriteArrayList<>();
    /** Heals under way on threads of their own, where the cluster's heals take long. */
    private final List<Thread> healing = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile int injected;

    private record Active(FaultPlan.Planned planned, long start, long dueNanos, String target) {
    }

    public FaultInjector(ClusterControl control, Drains drains, ApiClient api, String marker, HistoryFile history,
            RunClock clock, long seed, List<FaultPlan.Planned> plan) {
        this.control = control;
        this.drains = drains;
        this.api = api;
        this.marker = marker;
        this.history = history;
        this.clock = clock;
        this.random = new Random(seed ^ 0xB1A57L);
        this.thread = new Thread(() -> run(plan), "verify-faults");
        this.thread.setDaemon(true);
    }

    public FaultInjector start() {
        thread.start();
        return this;
    }

    public int injected() {
        return injected;
    }

    private void run(List<FaultPlan.Planned> plan) {
        long origin = System.nanoTime();
        List<FaultPlan.Planned> todo = new ArrayList<>(plan);
        todo.sort(Comparator.comparing(FaultPlan.Planned::at));
        while (running) {
            try {
                long now = System.nanoTime();
                while (!todo.isEmpty() && origin + todo.get(0).at().toNanos() <= now && running) {
                    begin(todo.remove(0));
                }
                for (Active a : active) {
                    if (System.nanoTime() >= a.dueNanos()
                            || a.planned().kind().equals(FaultKinds.DRAIN) && drained(a.target())) {
                        end(a);
                    }
                }
            } catch (RuntimeException e) {
                log.warn("verify-fault-injector-failed cause={}", e.toString(), e);
            }
            pause(200);
        }
    }

    private void begin(FaultPlan.Planned p) {
        long start = clock.now();
        String target = p.rep() >= 0 && p.rep() < control.cells().size() ? control.cells().get(p.rep()) : "cluster";
        try {
            switch (p.kind()) {
                case FaultKinds.MESSAGES -> {
                    FaultyConsumerInterceptor.set(0.03, 0.05, 0.05);
                    target = "every consumer";
                }
                case FaultKinds.REP_KILL -> control.killRep(p.rep());
                case FaultKinds.DRAIN -> {
                    if (!drains.drain(p.rep(), target)) {
                        return;
                    }
                }
                case FaultKinds.DATABASE -> {
                    control.stopDatabase();
                    target = "postgres";
                }
                case FaultKinds.KAFKA -> {
                    control.stopBroker();
                    target = "broker";
                }
                case FaultKinds.LEADER_FREEZE -> {
                    target = random.nextBoolean() ? "converger-service" : "auctioneer-service";
                    if (!control.freezeLeader(target)) {
                        return;
                    }
                }
                case FaultKinds.PARTITION -> {
                    // a rep two times in three (its cell is away meanwhile), else the converger's leader
                    target = random.nextInt(3) == 0 ? "converger-service" : target;
                    if (!control.partition(target)) {
                        return;
                    }
                }
                case FaultKinds.WORKLOAD_KILL -> {
                    killAWorkload(start);
                    return;
                }
                default -> {
                    return;
                }
            }
        } catch (RuntimeException e) {
            history.add(new Entry.Fault(p.kind(), target, start, clock.now(), "failed to inject: " + e));
            return;
        }
        injected++;
        log.info("verify-fault-begin kind={} target={} at_s={}", p.kind(), target, start / 1e6);
        active.add(new Active(p, start, System.nanoTime() + p.length().toNanos(), target));
    }

    private void killAWorkload(long start) {
        List<Entry.WorkloadProcess> processes = Processes.scan(marker).stream()
                .sorted(Comparator.comparingLong(Entry.WorkloadProcess::pid)).toList();
        if (processes.isEmpty()) {
            return;
        }
        Entry.WorkloadProcess victim = processes.get(random.nextInt(processes.size()));
        if (Processes.kill(victim.pid())) {
            injected++;
            log.info("verify-fault-begin kind={} target={} pid={}", FaultKinds.WORKLOAD_KILL, victim.cell(), victim.pid());
            history.add(new Entry.Fault(FaultKinds.WORKLOAD_KILL, victim.cell(), start, clock.now(),
                    "pid " + victim.pid() + " " + victim.processGuid() + "/" + victim.index() + " "
                            + victim.instanceGuid()));
        }
    }

    private boolean drained(String cell) {
        Entry.Call cells = api.call("faults", "fault-watch", "cells", "GET", "/v1/cells", null, null);
        if (cells.status() != 200) {
            return false;
        }
        for (var c : Json.tree(cells.body())) {
            if (c.path("cell_id").asString().equals(cell)) {
                return false;
            }
        }
        return true;
    }

    /** Heals {@code a} once: here, or on a thread of its own where heals take long ({@link #healing}). */
    private void end(Active a) {
        if (!active.remove(a)) {
            return;
        }
        if (!control.slowHeals()) {
            heal(a);
            return;
        }
        Thread t = new Thread(() -> heal(a), "verify-heal-" + a.planned().kind());
        t.setDaemon(true);
        healing.add(t);
        t.start();
    }

    private void heal(Active a) {
        String note = null;
        try {
            switch (a.planned().kind()) {
                case FaultKinds.MESSAGES -> {
                    FaultyConsumerInterceptor.set(0, 0, 0);
                    note = "injected " + FaultyConsumerInterceptor.injected();
                }
                case FaultKinds.REP_KILL -> control.restartRep(a.planned().rep());
                case FaultKinds.DRAIN -> drains.undrain(a.planned().rep(), a.target());
                case FaultKinds.DATABASE -> control.startDatabase();
                case FaultKinds.KAFKA -> control.startBroker();
                case FaultKinds.LEADER_FREEZE -> control.thawLeader(a.target());
                case FaultKinds.PARTITION -> control.reconnect(a.target());
                default -> {
                }
            }
        } catch (RuntimeException e) {
            note = "failed to heal: " + e;
        }
        log.info("verify-fault-end kind={} target={} at_s={} note={}", a.planned().kind(), a.target(),
                clock.now() / 1e6, note);
        history.add(new Entry.Fault(a.planned().kind(), a.target(), a.start(), clock.now(), note));
    }

    /**
     * Stops injecting and heals every fault still on; returns once all are healed (a rep started again in a JVM of its
     * own may take minutes on a loaded machine), so that the run's quiescence starts after the last fault.
     */
    public void healAll() {
        running = false;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Active a : active) {
            end(a);
        }
        for (Thread t : healing) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        healAll();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
