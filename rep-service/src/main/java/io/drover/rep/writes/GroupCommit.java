package io.drover.rep.writes;

import io.drover.model.jdbc.StorageFailures;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ClaimRequest;
import io.drover.model.lrp.CrashReport;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.LifecycleConflictException;
import io.drover.model.lrp.Outcome;
import io.drover.model.lrp.StartedInstance;
import io.drover.model.task.TaskCompletion;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskStart;
import io.drover.model.task.TaskStarted;
import io.drover.rep.task.TaskWrites;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries the lifecycle writes of every cell of this process in shared transactions: a cell's worker hands its claims,
 * starts, crashes and removals (and its tasks' starts, completions and rejections) over and waits; one writer thread
 * takes everything queued (no waiting window, like an auction round), merges requests of the same kind into one
 * lifecycle batch, and hands each cell its own outcomes.
 * One rep process hosting a thousand simulated cells then writes hundreds of instances per transaction instead of one,
 * while each cell keeps its serial, one-operation-per-container-at-a-time view.
 *
 * <p>A batch that fails because the database is away, or because a race kept being lost, fails every request in it;
 * each cell retries on its next pass, as it would have alone. A batch that fails for anything else may hold one item
 * the database refuses (one cell's poison must not fail its neighbours): it is committed again in halves, by request
 * and then by item, until the refused item stands alone; the others commit, and that one item gets an ending of its own
 * ({@link PoisonedItem}) instead of failing every pass forever. Nothing of this runs while batches succeed.
 */
public final class GroupCommit implements TaskWrites, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GroupCommit.class);
    private static final Actor REP = Actor.service("rep");

    private final ActualLrpLifecycle lifecycle;
    private final TaskLifecycle tasks;
    private final PoisonedItem poison;
    private final BlockingQueue<Request<?>> queue = new LinkedBlockingQueue<>();
    private final Thread writer;
    private volatile boolean running = true;

    public GroupCommit(ActualLrpLifecycle lifecycle, TaskLifecycle tasks) {
        this.lifecycle = lifecycle;
        this.tasks = tasks;
        this.poison = new PoisonedItem(tasks, REP);
        this.writer = new Thread(this::loop, "rep-group-commit");
        writer.setDaemon(true);
        writer.start();
    }

    public Map<ActualLrpKey, Outcome> claim(Map<ActualLrpKey, ClaimRequest> claims) {
        return submit(Kind.CLAIM, "", claims);
    }

    public Map<ActualLrpKey, Outcome> start(List<StartedInstance> started) {
        Map<ActualLrpKey, StartedInstance> byKey = new LinkedHashMap<>();
        started.forEach(s -> byKey.put(s.key(), s));
        return submit(Kind.START, "", byKey);
    }

    public Map<ActualLrpKey, Outcome> crash(Map<ActualLrpKey, CrashReport> crashes) {
        return submit(Kind.CRASH, "", crashes);
    }

    public Map<ActualLrpKey, Outcome> remove(Map<ActualLrpKey, InstanceOwner> owners, String reason) {
        return submit(Kind.REMOVE, reason, owners);
    }

    /** A cell turns placements away; they fail only while still placed on it. */
    public Map<ActualLrpKey, Outcome> reject(String cellId, Map<ActualLrpKey, String> errors) {
        return submit(Kind.REJECT, cellId, errors);
    }

    @Override
    public Map<String, TaskStarted> startTasks(Map<String, TaskStart> starts) {
        return submit(Kind.TASK_START, "", starts);
    }

    @Override
    public Map<String, Outcome> completeTasks(Map<String, TaskCompletion> completions) {
        return submit(Kind.TASK_COMPLETE, "", completions);
    }

    @Override
    public Map<String, Outcome> rejectTasks(String cellId, Map<String, String> errors) {
        return submit(Kind.TASK_REJECT, cellId, errors);
    }

    /**
     * Keys are instance slots ({@link ActualLrpKey}) for instance writes and task guids for task writes; results are
     * {@link Outcome}s, a task start's a {@link TaskStarted}.
     */
    private <K, T, R> Map<K, R> submit(Kind kind, String group, Map<K, T> items) {
        if (items.isEmpty()) {
            return Map.of();
        }
        if (!running) {
            throw new IllegalStateException("the rep is shutting down");
        }
        @SuppressWarnings("unchecked")
        Request<T> request = new Request<>(kind, group, (Map<Object, T>) items, new CompletableFuture<>());
        queue.add(request);
        try {
            @SuppressWarnings("unchecked")
            Map<K, R> outcomes = (Map<K, R>) (Map<?, ?>) request.result().join();
            return outcomes;
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    private void loop() {
        List<Request<?>> pending = new ArrayList<>();
        while (running) {
            try {
                if (pending.isEmpty()) {
                    pending.add(queue.take());
                }
                queue.drainTo(pending);
                pending = commitRound(pending);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        queue.forEach(r -> r.result().completeExceptionally(new IllegalStateException("the rep is shutting down")));
    }

    /** One transaction per kind (and group) of the requests taken; a request naming a key already taken waits. */
    private List<Request<?>> commitRound(List<Request<?>> requests) {
        Map<Batch, List<Request<?>>> batches = new LinkedHashMap<>();
        Map<Batch, Map<Object, Object>> merged = new HashMap<>();
        List<Request<?>> later = new ArrayList<>();
        for (Request<?> r : requests) {
            Batch batch = new Batch(r.kind(), r.group());
            Map<Object, Object> items = merged.computeIfAbsent(batch, b -> new LinkedHashMap<>());
            if (r.items().keySet().stream().anyMatch(items::containsKey)) {
                later.add(r);
                continue;
            }
            items.putAll(r.items());
            batches.computeIfAbsent(batch, b -> new ArrayList<>()).add(r);
        }
        batches.forEach((batch, taken) -> commit(batch, merged.get(batch), taken));
        return later;
    }

    private void commit(Batch batch, Map<Object, Object> items, List<Request<?>> taken) {
        Map<?, ?> outcomes;
        try {
            outcomes = write(batch, items);
        } catch (RuntimeException e) {
            if (!isolatable(e)) {
                log.debug("group-commit-failed kind={} instances={} cause={}", batch.kind(), items.size(), e.toString());
                taken.forEach(r -> r.result().completeExceptionally(e));
            } else if (taken.size() > 1) {
                log.info("group-commit-split kind={} requests={} instances={} error=\"{}\"", batch.kind(), taken.size(),
                        items.size(), PoisonedItem.cause(e));
                commitEach(batch, taken.subList(0, taken.size() / 2));
                commitEach(batch, taken.subList(taken.size() / 2, taken.size()));
            } else {
                completeIsolated(batch, items, taken.get(0), e);
            }
            return;
        }
        for (Request<?> r : taken) {
            Map<Object, Object> own = new LinkedHashMap<>();
            r.items().keySet().forEach(k -> own.put(k, outcomes.get(k)));
            if (own.containsValue(null)) {
                r.result().completeExceptionally(new IllegalStateException(batch.kind() + " gave no outcome for some of "
                        + own.keySet()));
            } else {
                r.result().complete(own);
            }
        }
    }

    /** Half of a split batch: these requests' items merged again, committed together. */
    private void commitEach(Batch batch, List<Request<?>> requests) {
        Map<Object, Object> items = new LinkedHashMap<>();
        requests.forEach(r -> items.putAll(r.items()));
        commit(batch, items, requests);
    }

    /** One request alone failed: its items are split until the refused one stands alone, the rest commit. */
    private void completeIsolated(Batch batch, Map<Object, Object> items, Request<?> request, RuntimeException failure) {
        try {
            request.result().complete(isolate(batch, items, failure));
        } catch (RuntimeException e) {
            request.result().completeExceptionally(e);
        }
    }

    private Map<Object, Object> isolate(Batch batch, Map<Object, Object> items, RuntimeException failure) {
        if (items.size() == 1) {
            Map.Entry<Object, Object> item = items.entrySet().iterator().next();
            Outcome ended = poison.end(batch.kind().name(), item.getKey(), item.getValue(), failure);
            return Map.of(item.getKey(), batch.kind() == Kind.TASK_START ? new TaskStarted(ended, null) : ended);
        }
        Map<Object, Object> outcomes = new LinkedHashMap<>();
        Map<Object, Object> first = new LinkedHashMap<>();
        Map<Object, Object> second = new LinkedHashMap<>();
        items.forEach((key, item) -> (first.size() < items.size() / 2 ? first : second).put(key, item));
        for (Map<Object, Object> half : List.of(first, second)) {
            try {
                outcomes.putAll(write(batch, half));
            } catch (RuntimeException e) {
                if (!isolatable(e)) {
                    throw e;
                }
                outcomes.putAll(isolate(batch, half, e));
            }
        }
        return outcomes;
    }

    /**
     * Whether smaller batches may commit where this one failed: not when the database is away (every half would fail
     * too), not after a race lost through every retry (the lifecycle retried that already), not while shutting down.
     */
    private boolean isolatable(RuntimeException e) {
        return running && !Thread.currentThread().isInterrupted() && !(e instanceof LifecycleConflictException)
                && !StorageFailures.isUnavailable(e);
    }

    @SuppressWarnings("unchecked")
    private Map<?, ?> write(Batch batch, Map<Object, Object> items) {
        return switch (batch.kind()) {
            case CLAIM -> lifecycle.claimAll(cast(items), REP);
            case START -> lifecycle.start(((Map<ActualLrpKey, StartedInstance>) (Map<?, ?>) items).values(), REP);
            case CRASH -> lifecycle.crashAll(cast(items), REP);
            case REMOVE -> lifecycle.removeAll(cast(items), batch.group(), REP);
            case REJECT -> lifecycle.rejectPlacement(batch.group(), cast(items), Actor.cell(batch.group()));
            case TASK_START -> tasks.startToRun(cast(items), REP);
            case TASK_COMPLETE -> tasks.complete(cast(items), REP);
            case TASK_REJECT -> tasks.rejectPlacement(batch.group(), cast(items), Actor.cell(batch.group()));
        };
    }

    @SuppressWarnings("unchecked")
    private static <K, T> Map<K, T> cast(Map<Object, Object> items) {
        return (Map<K, T>) (Map<?, ?>) items;
    }

    @Override
    public void close() {
        running = false;
        writer.interrupt();
        queue.forEach(r -> r.result().completeExceptionally(new IllegalStateException("the rep is shutting down")));
    }

    private enum Kind {
        CLAIM, START, CRASH, REMOVE, REJECT, TASK_START, TASK_COMPLETE, TASK_REJECT
    }

    /** Requests that can share a transaction: same kind, same group (the removal reason, the rejecting cell). */
    private record Batch(Kind kind, String group) {
    }

    private record Request<T>(Kind kind, String group, Map<Object, T> items,
            CompletableFuture<Map<Object, Object>> result) {
    }
}
