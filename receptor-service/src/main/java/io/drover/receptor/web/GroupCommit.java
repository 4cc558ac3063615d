package io.drover.receptor.web;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This receptor's writes of one kind (desires, task submissions) in shared transactions, a group commit as the rep's
 * writes have: each request thread hands its item over and waits; one writer thread takes everything queued (no
 * waiting window: an item alone is committed at once, a burst in batches of what arrived while the last batch
 * committed) and writes it with one call of its {@link Writer}, one transaction for the whole batch. Each request gets
 * its own answer or refusal. A batch whose transaction fails is tried again item by item, so that one item the database
 * refuses never fails the others.
 *
 * @param <T> what a request writes
 * @param <R> what it is answered
 */
public final class GroupCommit<T, R> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GroupCommit.class);
    /** Items per transaction at most: a few milliseconds of writing, whatever the burst. */
    public static final int MAX_BATCH = 256;

    private final String name;
    private final Writer<T, R> writer;
    private final BlockingQueue<Pending<T, R>> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean running = true;

    /** Starts the writer thread, named {@code name} (also the name in this group commit's log lines). */
    public GroupCommit(String name, Writer<T, R> writer) {
        this.name = name;
        this.writer = writer;
        this.thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Writes a batch in one transaction: the answers in order, each what its own write would return or throw. */
    @FunctionalInterface
    public interface Writer<T, R> {
        List<Answer<R>> writeAll(List<T> items);
    }

    /** One item's answer: its result, or the refusal its own write would have thrown. */
    public record Answer<R>(R result, RuntimeException refusal) {
    }

    /** Writes {@code item} with the others queued now; returns its answer or throws its refusal. */
    public R submit(T item) {
        if (!running) {
            throw new IllegalStateException("the receptor is shutting down");
        }
        Pending<T, R> pending = new Pending<>(item, new CompletableFuture<>());
        queue.add(pending);
        try {
            return pending.answer().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    private void loop() {
        List<Pending<T, R>> batch = new ArrayList<>();
        while (running) {
            try {
                batch.add(queue.take());
                queue.drainTo(batch, MAX_BATCH - 1);
                commit(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException e) {
                log.warn("{}-round-failed cause={}", name, e.toString());
                batch.forEach(p -> p.answer().completeExceptionally(e));
            } finally {
                batch.clear();
            }
        }
        queue.forEach(p -> p.answer().completeExceptionally(new IllegalStateException("the receptor is shutting down")));
    }

    private void commit(List<Pending<T, R>> batch) {
        List<Answer<R>> answers;
        try {
            answers = writer.writeAll(batch.stream().map(Pending::item).toList());
        } catch (RuntimeException e) {
            if (batch.size() == 1) {
                batch.get(0).answer().completeExceptionally(e);
            } else {
                log.info("{}-batch-failed items={} cause=\"{}\" (each is tried alone)", name, batch.size(),
                        e.toString());
                batch.forEach(p -> commit(new ArrayList<>(List.of(p))));
            }
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            Answer<R> answer = answers.get(i);
            if (answer.refusal() != null) {
                batch.get(i).answer().completeExceptionally(answer.refusal());
            } else {
                batch.get(i).answer().complete(answer.result());
            }
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }

    /** One request's item and the answer it waits for. */
    private record Pending<T, R>(T item, CompletableFuture<R> answer) {
    }
}
