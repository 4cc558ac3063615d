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
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicBoolean roundQueued = new AtomicBoolean();
    private ScheduledExecutorService rounds;
    private CallbackSender sender;

    public CompletionCallbacks(TaskReads reads, TaskLifecycle lifecycle, BooleanSupplier leader, TaskProperties settings,
            Clock clock, MeterRegistry meters) {
        this.reads = reads;
        this.lifecycle = lifecycle;
        this.leader = leader;
        this.settings = settings;
        this.clock = clock;
        this.meters = meters;
        this.budget = new CallbackPolicy.Budget(settings.callbackMaxAttempts(), settings.callbackRetryFor(),
                settings.callbackFirstBackoff(), settings.callbackMaxBackoff());
    }

    /** One round: record the attempts that ended, then send what is due, as far as there is room. */
    void round() {
        roundQueued.set(false);
        if (!leader.getAsBoolean()) {
            // not ours to record: the tasks stay RESOLVING and the leader hands them back after resolving-timeout
            ended.clear();
            return;
        }
        record(drainEnded());
        sendDue();
    }

    private Map<String, CallbackAnswer> drainEnded() {
        Map<String, CallbackAnswer> answers = new LinkedHashMap<>();
        Attempt attempt;
        while ((attempt = ended.poll()) != null) {
            answers.put(attempt.taskGuid(), attempt.answer());
        }
        return answers;
    }

    private void record(Map<String, CallbackAnswer> answers) {
        if (answers.isEmpty()) {
            return;
        }
        try {
            lifecycle.callbackAnswered(answers, CONVERGER).forEach((guid, outcome) -> {
                if (!outcome.succeeded()) {
                    log.debug("task-callback-not-recorded task_guid={} outcome={} message={}", guid, outcome.kind(),
                            outcome.message());
                }
            });
        } catch (RuntimeException e) {
            // the tasks stay RESOLVING; the converger hands them back after resolving-timeout and they are sent again
            log.warn("task-callback-record-failed tasks={} cause={}", answers.size(), e.toString());
        }
    }

    private void sendDue() {
        int room = settings.callbackConcurrency() - inFlight.get();
        if (room <= 0) {
            return;
        }
        List<TaskSnapshot> due = reads.callbacksDue(clock.instant(), room);
        if (due.isEmpty()) {
            return;
        }
        Map<String, Outcome> taken = lifecycle.resolving(due.stream().map(TaskSnapshot::taskGuid).toList(), CONVERGER);
        for (TaskSnapshot task : due) {
            if (taken.get(task.taskGuid()).kind() == Outcome.Kind.CHANGED) {
                inFlight.incrementAndGet();
                sender.send(task, status -> ended(task, status));
            }
        }
    }

    /** On a sender's thread: judge the attempt, queue it for the next round, and ask for that round now. */
    private void ended(TaskSnapshot task, Integer status) {
        int attempt = task.callback().attempts() + 1;
        Instant now = clock.instant();
        CallbackPolicy.Decision decision = CallbackPolicy.decide(status, attempt,
                Duration.between(task.firstCompletedAt(), now), budget);
        log.info("task-callback task_guid={} host={} attempt={} status={} verdict={}", task.taskGuid(),
                CallbackSender.host(task), attempt, status == null ? "none" : status, decision.verdict());
        meters.counter("drover.converger.callbacks", "verdict", decision.verdict().name().toLowerCase()).increment();
        ended.add(new Attempt(task.taskGuid(), CallbackPolicy.answer(decision, status, now)));
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

    /** How one attempt ended, waiting to be recorded. */
    private record Attempt(String taskGuid, CallbackAnswer answer) {
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
