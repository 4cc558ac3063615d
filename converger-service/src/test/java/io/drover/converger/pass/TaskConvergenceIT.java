package io.drover.converger.pass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.drover.converger.ConvergerIntegrationTest;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.json.Json;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.RunAction;
import io.drover.model.task.CallbackStatus;
import io.drover.model.task.TaskCompletion;
import io.drover.model.task.TaskDefinition;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskSnapshot;
import io.drover.model.task.TaskStart;
import io.drover.model.task.TaskState;
import io.drover.test.MutableClock;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** The task rules and the completion callbacks of the running converger, against real PostgreSQL and Kafka. */
@ConvergerIntegrationTest
class TaskConvergenceIT {

    static final Actor TEST = Actor.service("test");

    @Autowired
    MutableClock clock;
    @Autowired
    TaskLifecycle tasks;
    @Autowired
    TaskReads reads;
    @Autowired
    CellPresence cells;
    @Autowired
    OncePassHook hook;
    @Autowired
    MeterRegistry meters;

    HttpServer server;
    final List<JsonNode> received = new CopyOnWriteArrayList<>();
    final Set<String> refused = ConcurrentHashMap.newKeySet();
    final Set<String> slow = ConcurrentHashMap.newKeySet();
    final AtomicInteger unavailableFirst = new AtomicInteger();
    volatile int status = 200;

    @BeforeEach
    void callbackServer() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/done", exchange -> {
            received.add(Json.tree(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            int answer = unavailableFirst.getAndDecrement() > 0 ? 503 : status;
            exchange.sendResponseHeaders(answer, -1);
            exchange.close();
        });
        server.createContext("/refuse", exchange -> answer(exchange, refused, 500));
        server.createContext("/slow", exchange -> {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answer(exchange, slow, 200);
        });
        server.setExecutor(Executors.newFixedThreadPool(64));
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    @Test
    void aTaskRunningOnACellThatDisappearedFails() {
        String cell = "vanishing-" + UUID.randomUUID();
        cells.heartbeat(new CellRegistration(cell, "z1", "10.0.0.1", new Resources(1024, 1024, 10),
                List.of("preloaded:host"), List.of(), List.of()), Duration.ofSeconds(5));
        String guid = running(cell, null);

        clock.advance(Duration.ofSeconds(6));

        TaskSnapshot failed = awaitState(guid, TaskState.COMPLETED);
        assertThat(failed.failed()).isTrue();
        assertThat(failed.failureReason()).isEqualTo("cell disappeared before completion");
        assertThat(failed.cellId()).isEqualTo(cell);
    }

    @Test
    void aTaskStartedOnACellThatCameBackDuringThePassIsNotFailed() {
        String cell = "returning-" + UUID.randomUUID();
        CellRegistration registration = new CellRegistration(cell, "z1", "10.0.0.2", new Resources(1024, 1024, 10),
                List.of("preloaded:host"), List.of(), List.of());
        cells.heartbeat(registration, Duration.ofSeconds(5));
        String guid = submit(null);
        UUID epoch = reads.find(guid).orElseThrow().modificationTag().epoch();
        tasks.place(UUID.randomUUID(), Map.of(guid, cell), Actor.service("auctioneer"));
        // the pass that finds the cell gone: while it plans, the cell heartbeats again and starts its task
        hook.duringNextPass(() -> {
            cells.heartbeat(registration, Duration.ofSeconds(5));
            tasks.start(Map.of(guid, new TaskStart(cell, epoch)), TEST);
        });

        clock.advance(Duration.ofSeconds(6));

        await().atMost(Duration.ofSeconds(10)).until(hook::ran);
        int passes = passesSoFar();
        await().atMost(Duration.ofSeconds(10)).until(() -> passesSoFar() > passes + 1);
        TaskSnapshot task = reads.find(guid).orElseThrow();
        assertThat(task.failureReason()).as("judged against the cells it was read with").isNull();
        assertThat(task.state()).isEqualTo(TaskState.RUNNING);
    }

    @Test
    void aTaskNoCellTakesIsAuctionedAgainThenFailsWithItsPlacementError() {
        String guid = submit(null);
        tasks.failPlacement(Map.of(guid, "insufficient resources: disk"), Actor.service("auctioneer"));

        for (int attempt = 1; attempt <= 3; attempt++) {
            clock.advance(Duration.ofSeconds(31));
            int expected = attempt;
            await().atMost(Duration.ofSeconds(10)).until(() -> attempts(guid) == expected);
            // the re-auction went to an auctioneer that is not running here: the error stays, as a full fleet's would
            tasks.failPlacement(Map.of(guid, "insufficient resources: disk"), Actor.service("auctioneer"));
        }
        clock.advance(Duration.ofSeconds(31));

        TaskSnapshot failed = awaitState(guid, TaskState.COMPLETED);
        assertThat(failed.failureReason()).isEqualTo("insufficient resources: disk");
    }

    @Test
    void aCompletedTaskNobodyResolvesIsDeletedAfterTwoMinutes() {
        String guid = running("cell-" + UUID.randomUUID(), null);
        tasks.complete(Map.of(guid, TaskCompletion.succeeded(reads.find(guid).orElseThrow().cellId(), "")), TEST);
        clock.advance(Duration.ofSeconds(119));
        assertThat(reads.find(guid)).isPresent();

        clock.advance(Duration.ofSeconds(2));

        await().atMost(Duration.ofSeconds(10)).until(() -> reads.find(guid).isEmpty());
    }

    @Test
    void aCallbackAnsweredUnavailableIsSentAgainAndItsSuccessResolvesTheTask() {
        unavailableFirst.set(1);
        String guid = running("cell-" + UUID.randomUUID(), url());
        String cell = reads.find(guid).orElseThrow().cellId();

        tasks.complete(Map.of(guid, TaskCompletion.succeeded(cell, "42")), TEST);
        await().atMost(Duration.ofSeconds(20)).until(() -> received.size() == 1);
        await().atMost(Duration.ofSeconds(20)).until(() -> reads.find(guid).map(t -> t.state() == TaskState.COMPLETED
                && t.callback().attempts() == 1).orElse(false));
        assertThat(reads.find(guid).orElseThrow().callback().lastStatus()).isEqualTo(503);

        clock.advance(Duration.ofSeconds(2)); // past the first back-off (1 s)

        await().atMost(Duration.ofSeconds(20)).until(() -> reads.find(guid).isEmpty());
        assertThat(received).hasSize(2).allSatisfy(body -> {
            assertThat(body.get("task_guid").asString()).isEqualTo(guid);
            assertThat(body.get("state").asString()).isEqualTo("COMPLETED");
            assertThat(body.get("result").asString()).isEqualTo("42");
            assertThat(body.get("failed").asBoolean()).isFalse();
        });
    }

    @Test
    void aCallbackAnsweredWithAnErrorLeavesTheTaskCompletedForAClient() {
        status = 500;
        String guid = running("cell-" + UUID.randomUUID(), url());
        tasks.complete(Map.of(guid, TaskCompletion.failed(reads.find(guid).orElseThrow().cellId(),
                "exited with status 2")), TEST);

        await().atMost(Duration.ofSeconds(20)).until(() -> received.size() == 1
                && reads.find(guid).map(t -> t.callback().status() == CallbackStatus.GIVEN_UP).orElse(false));
        TaskSnapshot givenUp = reads.find(guid).orElseThrow();
        assertThat(givenUp.state()).isEqualTo(TaskState.COMPLETED);
        assertThat(givenUp.callback().lastStatus()).isEqualTo(500);
        assertThat(givenUp.callback().attempts()).isEqualTo(1);
        assertThat(received.get(0).get("failure_reason").asString()).isEqualTo("exited with status 2");
        assertThat(received.get(0).get("callback_status").asString()).isEqualTo("pending");
        tasks.delete(guid, TEST);
    }

    @Test
    void givenUpCallbacksNeverHoldBackTheCallbacksOfNewerTasks() {
        String cell = "cell-" + UUID.randomUUID();
        List<String> refusing = IntStream.range(0, 40).mapToObj(i -> running(cell, url("/refuse"))).toList();
        complete(refusing, cell);
        await().atMost(Duration.ofSeconds(30)).until(() -> refused.containsAll(refusing));

        String fresh = running(cell, url());
        clock.advance(Duration.ofSeconds(1));
        complete(List.of(fresh), cell);

        await().atMost(Duration.ofSeconds(20)).until(() -> reads.find(fresh).isEmpty());
        assertThat(received).anySatisfy(body -> assertThat(body.get("task_guid").asString()).isEqualTo(fresh));
        refusing.forEach(guid -> tasks.delete(guid, TEST));
    }

    @Test
    void aBurstOfCompletionsForASlowReceiverIsNeverExpiredBeforeItsCallbacks() {
        String cell = "cell-" + UUID.randomUUID();
        List<String> burst = IntStream.range(0, 100).mapToObj(i -> running(cell, url("/slow"))).toList();
        complete(burst, cell);

        clock.advance(Duration.ofMinutes(3));

        await().atMost(Duration.ofSeconds(60)).until(() -> slow.containsAll(burst));
        await().atMost(Duration.ofSeconds(20)).until(() -> burst.stream().allMatch(g -> reads.find(g).isEmpty()));
    }

    private void complete(List<String> guids, String cell) {
        Map<String, TaskCompletion> completions = new LinkedHashMap<>();
        guids.forEach(g -> completions.put(g, TaskCompletion.succeeded(cell, "")));
        tasks.complete(completions, TEST);
    }

    private static void answer(HttpExchange exchange, Set<String> into, int status) throws IOException {
        into.add(Json.tree(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8))
                .get("task_guid").asString());
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    private String url() {
        return url("/done");
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private String submit(String callbackUrl) {
        String guid = "task-" + UUID.randomUUID();
        tasks.submit(new TaskDefinition(guid, "it", "preloaded:host",
                new Action(new RunAction("true", List.of(), null, List.of(), null)), List.of(), 16, 16, 0, 0,
                List.of(), null, callbackUrl, null, null, null), TEST);
        return guid;
    }

    /** A task RUNNING on {@code cell} (which need not be live). */
    /** A task RUNNING on {@code cell}, which is live (for a minute) unless it has beaten already with a shorter TTL. */
    private String running(String cell, String callbackUrl) {
        if (cells.find(cell).isEmpty()) {
            cells.heartbeat(new CellRegistration(cell, "z1", "10.0.0.1", new Resources(1024, 1024, 10),
                    List.of("preloaded:host"), List.of(), List.of()), Duration.ofMinutes(1));
        }
        String guid = submit(callbackUrl);
        UUID epoch = reads.find(guid).orElseThrow().modificationTag().epoch();
        tasks.place(UUID.randomUUID(), Map.of(guid, cell), Actor.service("auctioneer"));
        tasks.start(Map.of(guid, new TaskStart(cell, epoch)), TEST);
        return guid;
    }

    private int passesSoFar() {
        return (int) meters.counter("drover.convergence.passes", "result", "ok").count();
    }

    private int attempts(String guid) {
        return reads.summaries().stream().filter(s -> s.taskGuid().equals(guid)).findFirst()
                .map(TaskReads.TaskSummary::placementAttempts).orElse(-1);
    }

    private TaskSnapshot awaitState(String guid, TaskState state) {
        await().atMost(Duration.ofSeconds(10)).until(() -> reads.find(guid).map(t -> t.state() == state)
                .orElse(false));
        return reads.find(guid).orElseThrow();
    }
}
