package io.drover.receptor.task;

import io.drover.model.lrp.Actor;
import io.drover.model.task.TaskAdmission;
import io.drover.model.task.TaskDefinition;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskSubmission;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This receptor's task submissions in shared transactions, a group commit as the rep's writes have: each request thread
 * hands its submission over and waits; one writer thread takes everything queued (no waiting window: a submission
 * alone is committed at once, a burst in batches of what arrived while the last batch committed) and submits it through
 * {@link TaskLifecycle#submitAll}, one transaction, one statement per table for the whole batch. Each request gets its
 * own answer or refusal. A batch whose transaction fails is tried again submission by submission, so that one
 * submission the database refuses never fails the others.
 */
final class SubmitQueue implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SubmitQueue.class);
    /** Submissions per transaction at most: a few milliseconds of writing, whatever the burst. */
    static final int MAX_BATCH = 256;

    private final TaskLifecycle lifecycle;
    private final Actor actor;
    private final TaskAdmission admission;
    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final Thread writer;
    private volatile boolean running = true;

    SubmitQueue(TaskLifecycle lifecycle, Actor actor, TaskAdmission admission) {
        this.lifecycle = lifecycle;
        this.actor = actor;
        this.admission = admission;
        this.writer = new Thread(this::loop, "task-submissions");
        writer.setDaemon(true);
        writer.start();
    }

    /** Submits {@code definition} with the others queued now; returns its answer or throws its refusal. */
    TaskSubmission submit(TaskDefinition definition) {
        if (!running) {
            throw new IllegalStateException("the receptor is shutting down");
        }
        Pending pending = new Pending(definition, new CompletableFuture<>());
        queue.add(pending);
        try {
            return pending.answer().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    private void loop() {
        List<Pending> batch = new ArrayList<>();
        while (running) {
            try {
                batch.add(queue.take());
                queue.drainTo(batch, MAX_BATCH - 1);
                commit(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException e) {
                log.warn("task-submissions-round-failed cause={}", e.toString());
                batch.forEach(p -> p.answer().completeExceptionally(e));
            } finally {
                batch.clear();
            }
        }
        queue.forEach(p -> p.answer().completeExceptionally(new IllegalStateException("the receptor is shutting down")));
    }

    private void commit(List<Pending> batch) {
        List<TaskLifecycle.Submitted> answers;
        try {
            answers = lifecycle.submitAll(batch.stream().map(Pending::definition).toList(), actor, admission);
        } catch (RuntimeException e) {
            if (batch.size() == 1) {
                batch.get(0).answer().completeExceptionally(e);
            } else {
                log.info("task-submissions-batch-failed submissions={} cause=\"{}\" (each is tried alone)",
                        batch.size(), e.toString());
                batch.forEach(p -> commit(new ArrayList<>(List.of(p))));
            }
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            TaskLifecycle.Submitted answer = answers.get(i);
            if (answer.refusal() != null) {
                batch.get(i).answer().completeExceptionally(answer.refusal());
            } else {
                batch.get(i).answer().complete(answer.submission());
            }
        }
    }

    @Override
    public void close() {
        running = false;
        writer.interrupt();
    }

    /** One request's submission and the answer it waits for. */
    private record Pending(TaskDefinition definition, CompletableFuture<TaskSubmission> answer) {
    }
}
