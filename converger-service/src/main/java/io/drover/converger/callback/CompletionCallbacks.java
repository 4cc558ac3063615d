package io.drover.converger.callback;

import io.drover.converger.TaskProperties;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.Outcome;
import io.drover.model.task.CallbackAnswer;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskSnapshot;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Sends completion callbacks, on the converger leader only, in rounds on one thread: record how the attempts that
 * ended went, then take the callbacks that are due (selected in SQL: pending, by their next attempt's time) as far as
 * {@code callback-concurrency} leaves room, make each RESOLVING (the lock: no other converger, nor a client's DELETE,
 * handles the task meanwhile) and POST its JSON outside any transaction. A round runs every {@code callback-interval}
 * and as soon as an attempt ends, so a burst drains at the pace of the receivers, not of the interval.
 *
 * <p>Every attempt is recorded in the task's row ({@link CallbackPolicy} decides): delivered deletes the task; a retry
 * hands it back COMPLETED with its next attempt's time; given up hands it back COMPLETED for a client (or its expiry,
 * which never takes a task whose callback is still due). Delivery is at least once: a converger that dies with
 * attempts in flight leaves their tasks RESOLVING, the next leader's pass hands them back after
 * {@code resolving-timeout}, and they are sent again.
 *
 * <p>A round that cannot record its answers (PostgreSQL restarting, the pool timing out) keeps them and records them
 * at its next round, with those that ended since, and sends nothing meanwhile; dropping them would leave every task
 * whose attempt ended during an outage RESOLVING until {@code resolving-timeout}, and send it again. An answer is
 * recorded only while its attempt took its task less than {@code resolving-timeout} ago: recording checks only that
 * the task is RESOLVING, not which attempt holds it, so an older answer could find its task handed back by the pass,
 * taken again by a later attempt, and be recorded against that one (counting an attempt the receiver may be answering
 * 2xx, and handing the task back while that attempt is in flight). Such an answer is dropped; the later attempt's
 * answer counts. A converger that is not (or no longer) the leader drops its answers: the leader hands their tasks back
 * after {@code resolving-timeout}.
 */
public class CompletionCallbacks implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(CompletionCallbacks.class);
    private static final Actor CONVERGER = Actor.service("converger");

    private final TaskReads reads;
    private final TaskLifecycle lifecycle;
    private final BooleanSupplier leader;
    private final TaskProperties settings;
    private final Clock clock;
    private final MeterRegistry meters;
    private final CallbackPolicy.Budget budget;
    private final Queue<Attempt> ended = new ConcurrentLinkedQueue<>();
    /**
     * The answers waiting to be recorded, one per task (a later one replaces an earlier), touched by the round thread
     * only. At most {@code callback-concurrency}: each comes from an attempt that was in flight, and a round sends only
     * once everything that ended is recorded (while the database is down nothing is sent anyway: the due callbacks are
     * read from it).
     */
    private final Map<String, Attempt> held = new LinkedHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicBoolean roundQueued = new AtomicBoolean();
    private ScheduledExecutorService rounds;
    private CallbackSender sender;

    public CompletionCallbacks(TaskReads reads, TaskLifecycle lifecycle, BooleanSupplier leader,
            TaskProperties settings, Clock clock, MeterRegistry meters) {
        this.reads = reads;
        this.lifecycle = lifecycle;
        this.leader = leader;
        this.settings = settings;
        this.clock = clock;
        this.meters = meters;
        this.budget = new CallbackPolicy.Budget(settings.callbackMaxAttempts(), settings.callbackRetryFor(),
                settings.callbackFirstBackoff(), settings.callbackMaxBackoff());
    }

    /** One round: record the attempts that ended, then, once all are recorded, send what is due, as far as it can. */
    void round() {
        roundQueued.set(false);
        if (!leader.getAsBoolean()) {
            // not ours to record: the tasks stay RESOLVING and the leader hands them back after resolving-timeout
            ended.clear();
            held.clear();
            return;
        }
        holdEnded();
        if (record()) {
            sendDue();
        }
    }

    private void holdEnded() {
        Attempt attempt;
        while ((attempt = ended.poll()) != null) {
            held.put(attempt.taskGuid(), attempt);
        }
    }

    /** Records the held answers; false when that failed and they are kept for the next round. */
    private boolean record() {
        dropOutlived();
        if (held.isEmpty()) {
            return true;
        }
        Map<String, CallbackAnswer> answers = new LinkedHashMap<>();
        held.forEach((guid, attempt) -> answers.put(guid, attempt.answer()));
        try {
            lifecycle.callbackAnswered(answers, CONVERGER).forEach((guid, outcome) -> {
                if (!outcome.succeeded()) {
                    log.debug("task-callback-not-recorded task_guid={} outcome={} message={}", guid, outcome.kind(),
                            outcome.message());
                }
            });
            held.clear();
            return true;
        } catch (RuntimeException e) {
            log.warn("task-callback-record-failed tasks={} kept_for_next_round=true cause={}", answers.size(),
                    e.toString());
            return false;
        }
    }

    /** Drops the answers whose task the pass may have handed back and a later attempt taken (see the class comment). */
    private void dropOutlived() {
        Instant handedBackBy = clock.instant().minus(settings.resolvingTimeout());
        int before = held.size();
        held.values().removeIf(attempt -> !attempt.taken().isAfter(handedBackBy));
        if (held.size() < before) {
            log.warn("task-callback-answers-dropped tasks={} reason=attempt-older-than-resolving-timeout",
                    before - held.size());
        }
    }

    private void sendDue() {
        int room = settings.callbackConcurrency() - inFlight.get();
        if (room <= 0) {
            return;
        }
        Instant now = clock.instant(); // the attempts' taken time: never after the stamp resolving-timeout counts from
        List<TaskSnapshot> due = reads.callbacksDue(now, room);
        if (due.isEmpty()) {
            return;
        }
        Map<String, Outcome> taken = lifecycle.resolving(due.stream().map(TaskSnapshot::taskGuid).toList(), CONVERGER);
        for (TaskSnapshot task : due) {
            if (taken.get(task.taskGuid()).kind() == Outcome.Kind.CHANGED) {
                inFlight.incrementAndGet();
                sender.send(task, status -> ended(task, now, status));
            }
        }
    }

    /** On a sender's thread: judge the attempt, queue it for the next round, and ask for that round now. */
    private void ended(TaskSnapshot task, Instant taken, Integer status) {
        int attempt = task.callback().attempts() + 1;
        Instant now = clock.instant();
        CallbackPolicy.Decision decision = CallbackPolicy.decide(status, attempt,
                Duration.between(task.firstCompletedAt(), now), budget);
        log.info("task-callback task_guid={} host={} attempt={} status={} verdict={}", task.taskGuid(),
                CallbackSender.host(task), attempt, status == null ? "none" : status, decision.verdict());
        meters.counter("drover.converger.callbacks", "verdict", decision.verdict().name().toLowerCase()).increment();
        ended.add(new Attempt(task.taskGuid(), CallbackPolicy.answer(decision, status, now), taken));
        inFlight.decrementAndGet();
        wake();
    }

    private void wake() {
        ScheduledExecutorService current = rounds;
        if (current != null && roundQueued.compareAndSet(false, true)) {
            try {
                current.execute(this::safely);
            } catch (RuntimeException e) {
                roundQueued.set(false); // stopping
            }
        }
    }

    private void safely() {
        try {
            round();
        } catch (RuntimeException e) {
            log.warn("task-callbacks-round-failed cause={}", e.toString());
        }
    }

    /** How one attempt ended, waiting to be recorded; {@code taken}: when the attempt made its task RESOLVING. */
    private record Attempt(String taskGuid, CallbackAnswer answer, Instant taken) {
    }

    @Override
    public synchronized void start() {
        sender = new CallbackSender(settings.callbackConcurrency(), settings.callbackTimeout());
        rounds = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "task-callbacks");
            t.setDaemon(true);
            return t;
        });
        long every = settings.callbackInterval().toMillis();
        rounds.scheduleWithFixedDelay(this::safely, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (rounds != null) {
            rounds.shutdownNow();
            sender.close();
            rounds = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return rounds != null;
    }
}
