package io.drover.converger.callback;

import io.drover.converger.TaskProperties;
import io.drover.model.json.Json;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.Outcome;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskSnapshot;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Sends completion callbacks, on the converger leader only. Every {@code callback-interval} it takes completed tasks
 * with a callback URL and makes each RESOLVING (the transition is the lock: no other converger, nor a client's DELETE,
 * handles the task meanwhile), then POSTs the task's JSON outside any transaction. A 2xx deletes the task; 503, 504 and
 * failed connections are retried with back-off for {@code callback-retry-for}; after that, or on any other answer, the
 * task goes back to COMPLETED for a client to resolve, and this converger does not try it again.
 *
 * <p>Delivery is at least once: a converger that dies between the POST and the deletion leaves the task RESOLVING,
 * the next leader's pass turns it back to COMPLETED after {@code resolving-timeout}, and its callback is sent again.
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
    private final Map<String, Boolean> inFlight = new ConcurrentHashMap<>();
    private final Map<String, Instant> givenUp = new ConcurrentHashMap<>();
    private ScheduledExecutorService scheduler;
    private ExecutorService senders;
    private HttpClient http;

    public CompletionCallbacks(TaskReads reads, TaskLifecycle lifecycle, BooleanSupplier leader, TaskProperties settings,
            Clock clock, MeterRegistry meters) {
        this.reads = reads;
        this.lifecycle = lifecycle;
        this.leader = leader;
        this.settings = settings;
        this.clock = clock;
        this.meters = meters;
    }

    /** One look for completions to send; runs on the worker's own thread every interval. */
    void poll() {
        if (!leader.getAsBoolean()) {
            return;
        }
        int room = settings.callbackConcurrency() - inFlight.size();
        if (room <= 0) {
            return;
        }
        forgetOldGiveUps();
        List<TaskSnapshot> due = reads.awaitingCallback(settings.callbackConcurrency() * 4).stream()
                .filter(t -> !inFlight.containsKey(t.taskGuid()) && !givenUp.containsKey(key(t))).limit(room)
                .toList();
        if (due.isEmpty()) {
            return;
        }
        Map<String, Outcome> taken = lifecycle.resolving(due.stream().map(TaskSnapshot::taskGuid).toList(), CONVERGER);
        for (TaskSnapshot task : due) {
            if (taken.get(task.taskGuid()).kind() == Outcome.Kind.CHANGED) {
                inFlight.put(task.taskGuid(), true);
                send(task, 1, clock.instant());
            }
        }
    }

    private void send(TaskSnapshot task, int attempt, Instant firstAttempt) {
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(URI.create(task.definition().completionCallbackUrl()))
                    .timeout(settings.callbackTimeout()).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(Json.write(task))).build();
        } catch (RuntimeException e) {
            answered(task, attempt, firstAttempt, null);
            return;
        }
        http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenCompleteAsync(
                (response, error) -> answered(task, attempt, firstAttempt, response == null ? null
                        : response.statusCode()), senders);
    }

    private void answered(TaskSnapshot task, int attempt, Instant firstAttempt, Integer status) {
        CallbackPolicy.Decision decision = CallbackPolicy.decide(status, attempt,
                Duration.between(firstAttempt, clock.instant()), settings.callbackRetryFor());
        log.info("task-callback task_guid={} host={} attempt={} status={} verdict={}", task.taskGuid(),
                host(task), attempt, status == null ? "none" : status, decision.verdict());
        meters.counter("drover.converger.callbacks", "verdict", decision.verdict().name().toLowerCase()).increment();
        try {
            switch (decision.verdict()) {
                case RETRY -> {
                    scheduler.schedule(() -> send(task, attempt + 1, firstAttempt), decision.delay().toMillis(),
                            TimeUnit.MILLISECONDS);
                    return;
                }
                case RESOLVE -> lifecycle.resolved(List.of(task.taskGuid()), CONVERGER);
                case GIVE_UP -> {
                    givenUp.put(key(task), clock.instant());
                    lifecycle.revertResolving(List.of(task.taskGuid()), "callback failed ("
                            + (status == null ? "no answer" : "status " + status) + ")", CONVERGER);
                }
            }
        } catch (RuntimeException e) {
            // the task stays RESOLVING; the converger turns it back to COMPLETED after resolving-timeout
            log.warn("task-callback-record-failed task_guid={} cause={}", task.taskGuid(), e.toString());
        }
        inFlight.remove(task.taskGuid());
    }

    /** A task gets one run of retries per converger; past its expiry it is gone anyway. */
    private void forgetOldGiveUps() {
        Instant before = clock.instant().minus(settings.completedTtl()).minus(settings.resolvingTimeout());
        givenUp.values().removeIf(at -> at.isBefore(before));
    }

    private static String key(TaskSnapshot task) {
        return task.taskGuid() + "/" + task.modificationTag().epoch();
    }

    /** Where a callback went, for the log: the host only (a URL may carry credentials or tokens). */
    private static String host(TaskSnapshot task) {
        try {
            return URI.create(task.definition().completionCallbackUrl()).getHost();
        } catch (RuntimeException e) {
            return "invalid";
        }
    }

    Set<String> inFlight() {
        return Set.copyOf(inFlight.keySet());
    }

    @Override
    public synchronized void start() {
        senders = Executors.newFixedThreadPool(Math.max(1, settings.callbackConcurrency()), daemon("task-callback"));
        http = HttpClient.newBuilder().connectTimeout(settings.callbackTimeout()).executor(senders)
                .followRedirects(HttpClient.Redirect.NEVER).build();
        scheduler = Executors.newSingleThreadScheduledExecutor(daemon("task-callbacks"));
        long every = settings.callbackInterval().toMillis();
        scheduler.scheduleWithFixedDelay(this::safely, every, every, TimeUnit.MILLISECONDS);
    }

    private void safely() {
        try {
            poll();
        } catch (RuntimeException e) {
            log.warn("task-callbacks-poll-failed cause={}", e.toString());
        }
    }

    @Override
    public synchronized void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            senders.shutdownNow();
            scheduler = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
