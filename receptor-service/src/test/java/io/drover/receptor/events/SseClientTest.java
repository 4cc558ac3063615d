package io.drover.receptor.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.messaging.EventPosition;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter.DataWithMediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * A client writes each event once and in order, whatever the tail and its own reads from PostgreSQL overlap: it starts
 * by catching up, skips repeats, closes gaps by reading again, and reads again instead of losing what its full queue
 * could not take. PostgreSQL is an in-memory list of frames here.
 */
class SseClientTest {

    /** Every event "in PostgreSQL", in stream order: position (1, i), i = 1..n. */
    private final List<EventFrame> table = new CopyOnWriteArrayList<>();
    private final AtomicInteger reads = new AtomicInteger();
    private final List<String> written = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicInteger overflows = new AtomicInteger();

    @AfterEach
    void stop() throws InterruptedException {
        for (Thread t : threads) {
            t.interrupt();
            t.join(5_000);
        }
    }

    @Test
    void aClientStartsWithWhatItMissedThenSkipsWhatItAlreadyWrote() {
        write(5);
        SseClient client = start(at(2), 16);
        await().atMost(Duration.ofSeconds(10)).until(() -> written.size() == 3);
        client.offer(frame(4, 5)); // the tail publishing what the client read already
        write(1);
        client.offer(frame(5, 6));
        await().atMost(Duration.ofSeconds(10)).until(() -> written.size() == 4);
        assertThat(written).containsExactly(id(3), id(4), id(5), id(6));
    }

    @Test
    void aFrameAfterAGapMakesTheClientReadTheGapFirstAndTheFrameOnlyOnce() {
        SseClient client = start(EventPosition.START, 16);
        await().atMost(Duration.ofSeconds(10)).until(() -> reads.get() >= 1);
        write(4); // the tail published 1..3 before this client was there; it publishes 4 naming 3
        client.offer(frame(3, 4));
        await().atMost(Duration.ofSeconds(10)).until(() -> written.size() == 4);
        write(1);
        client.offer(frame(4, 5));
        await().atMost(Duration.ofSeconds(10)).until(() -> written.size() == 5);
        assertThat(written).containsExactly(id(1), id(2), id(3), id(4), id(5));
    }

    /**
     * A tail that starts while a client is there starts at the end, past events that came after the client's first
     * read; its mark says so, and the client reads them though no event follows.
     */
    @Test
    void theTailsMarkOfWhereItStartsMakesAClientBehindItReadUpToThere() {
        SseClient client = start(EventPosition.START, 16);
        await().atMost(Duration.ofSeconds(10)).until(() -> reads.get() >= 1);
        write(2);
        client.offer(EventFrame.mark(at(2)));
        await().atMost(Duration.ofSeconds(10)).until(() -> written.size() == 2);
        client.offer(EventFrame.mark(at(1))); // behind the client: nothing to do
        write(1);
        client.offer(frame(2, 3));
        await().atMost(Duration.ofSeconds(10)).until(() -> written.size() == 3);
        assertThat(written).containsExactly(id(1), id(2), id(3));
    }

    @Test
    void aClientWhoseQueueOverflowsReadsWhatItMissedInsteadOfLosingIt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        SseClient client = start(EventPosition.START, 4, release);
        await().atMost(Duration.ofSeconds(10)).until(() -> reads.get() >= 1);
        for (int i = 1; i <= 100; i++) {
            write(1);
            client.offer(frame(i - 1, i)); // the writer is stuck on a slow socket: its queue of 4 overflows
        }
        assertThat(overflows.get()).isEqualTo(1);
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> written.size() == 100);
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            expected.add(id(i));
        }
        assertThat(written).containsExactlyElementsOf(expected);
        assertThat(reads.get()).as("caught up from the table after the overflow").isGreaterThanOrEqualTo(2);
        assertThat(client.isClosed()).isFalse();
    }

    private SseClient start(EventPosition at, int buffer) {
        return start(at, buffer, new CountDownLatch(0));
    }

    private SseClient start(EventPosition at, int buffer, CountDownLatch release) {
        SseEmitter emitter = new SseEmitter(0L) {
            @Override
            public void send(Set<DataWithMediaType> items) throws IOException {
                List<String> ids = items.stream().map(d -> d.getData().toString()).filter(s -> s.startsWith("id:"))
                        .map(s -> s.substring(3, s.indexOf('\n'))).toList();
                try {
                    if (!ids.isEmpty()) {
                        release.await(10, TimeUnit.SECONDS); // a slow socket: the first event blocks
                    }
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                written.addAll(ids);
            }
        };
        SseClient client = new SseClient(emitter, at, buffer, this::read, () -> { }, overflows::incrementAndGet);
        Thread t = new Thread(client, "test-sse-client");
        t.setDaemon(true);
        t.start();
        threads.add(t);
        return client;
    }

    /** The replay over the table: at most 3 frames after a position, as PostgreSQL would answer. */
    private EventReplay.Batch read(EventPosition after) {
        reads.incrementAndGet();
        List<EventFrame> frames = table.stream().filter(f -> f.position().isAfter(after)).limit(3).toList();
        return new EventReplay.Batch(frames, frames.isEmpty() ? after : frames.get(frames.size() - 1).position(),
                frames.size() == 3);
    }

    private void write(int events) {
        for (int i = 0; i < events; i++) {
            int n = table.size() + 1;
            table.add(frame(n - 1, n));
        }
    }

    private static EventFrame frame(int previous, int position) {
        return new EventFrame(at(previous), at(position), SseEmitter.event().id(id(position)).name("test_event")
                .data("{}").build());
    }

    private static EventPosition at(int n) {
        return n == 0 ? EventPosition.START : new EventPosition(1, n);
    }

    private static String id(int n) {
        return at(n).text();
    }
}
