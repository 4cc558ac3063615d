package io.drover.receptor.logs;

import static io.drover.receptor.TestApi.desiredLrp;
import static io.drover.receptor.TestApi.guid;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.RunAction;
import io.drover.model.lrp.StartedInstance;
import io.drover.model.task.TaskCompletion;
import io.drover.model.task.TaskDefinition;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskStart;
import io.drover.receptor.ReceptorTest;
import io.drover.receptor.TestApi;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The logs endpoint over real HTTP: its errors, and the relay of a cell's log stream. The cell here is a small HTTP
 * server in the test playing a rep's log server (the real one is exercised end to end by the CLI's IT).
 */
@ReceptorTest
class LogsApiIT {

    @LocalServerPort
    int port;
    @Autowired
    ActualLrpLifecycle actuals;
    @Autowired
    CellPresence presence;
    @Autowired
    TaskLifecycle tasks;

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<String> cellRequests = new CopyOnWriteArrayList<>();
    private HttpServer cell;

    @AfterEach
    void stopCell() {
        if (cell != null) {
            cell.stop(0);
        }
    }

    @Test
    void badParametersAreInvalidRequest() throws Exception {
        String guid = desire(1);
        for (String query : List.of("tail=abc", "tail=-1", "tail=100001", "follow=maybe", "stream=console")) {
            HttpResponse<String> response = get("/v1/actual_lrps/" + guid + "/index/0/logs?" + query);
            assertThat(response.statusCode()).as(query).isEqualTo(400);
            assertThat(response.body()).as(query).contains("\"name\":\"InvalidRequest\"");
        }
        assertThat(get("/v1/actual_lrps/" + guid + "/index/x/logs").statusCode()).isEqualTo(400);
    }

    @Test
    void anUnknownInstanceIsActualLrpIndexNotFound() throws Exception {
        String guid = desire(1);
        for (String path : List.of(guid + "/index/3", guid("none") + "/index/0", "bad.guid/index/0", guid + "/index/-1")) {
            HttpResponse<String> response = get("/v1/actual_lrps/" + path + "/logs");
            assertThat(response.statusCode()).as(path).isEqualTo(404);
            assertThat(response.body()).contains("ActualLRPIndexNotFound");
        }
    }

    @Test
    void anInstanceOnNoCellIsAConflict() throws Exception {
        String guid = desire(1);
        HttpResponse<String> response = get("/v1/actual_lrps/" + guid + "/index/0/logs");
        assertThat(response.statusCode()).isEqualTo(409);
        assertThat(response.body()).contains("\"name\":\"InstanceNotOnCell\"", "UNCLAIMED");
    }

    @Test
    void aCellThatDoesNotAnswerIsABadGateway() throws Exception {
        String guid = desire(1);
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        run(guid, "cell-silent", "http://127.0.0.1:" + closedPort);
        HttpResponse<String> response = get("/v1/actual_lrps/" + guid + "/index/0/logs");
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.body()).contains("\"name\":\"CellUnreachable\"", "cell-silent did not answer");

        String other = desire(1);
        run(other, "cell-without-logs", null);
        HttpResponse<String> none = get("/v1/actual_lrps/" + other + "/index/0/logs");
        assertThat(none.statusCode()).isEqualTo(502);
        assertThat(none.body()).contains("serves no logs");
    }

    @Test
    void relaysTheCellsLinesAndMapsItsAnswers() throws Exception {
        String guid = desire(1);
        String instanceGuid = run(guid, "cell-logs", startCell());

        HttpResponse<String> response = get("/v1/actual_lrps/" + guid + "/index/0/logs?tail=2&follow=true"
                + "&stream=stdout");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain;charset=UTF-8");
        assertThat(response.body()).isEqualTo("2025-01-31T10:00:00.000Z [stdout] one\n"
                + "2025-01-31T10:00:01.000Z [stdout] two\n");
        assertThat(cellRequests).containsExactly("/v1/cells/cell-logs/instances/" + instanceGuid
                + "/logs?tail=2&follow=true&stream=stdout Bearer " + TestApi.LOGS_SECRET);

        assertThat(get("/v1/actual_lrps/" + guid + "/index/0/logs?stream=stderr").statusCode())
                .as("the cell answers 404: the instance left it").isEqualTo(409);
        HttpResponse<String> refused = get("/v1/actual_lrps/" + guid + "/index/0/logs?stream=rep");
        assertThat(refused.statusCode()).as("the cell refuses the secret").isEqualTo(502);
        assertThat(refused.body()).contains("refused this receptor's drover.logs.secret")
                .doesNotContain(TestApi.LOGS_SECRET);
    }

    @Test
    void aTaskLogIsTaskNotFoundForNoTaskAndAConflictWhileNoCellRunsIt() throws Exception {
        for (String guid : List.of(guid("none"), "bad.guid")) {
            HttpResponse<String> response = get("/v1/tasks/" + guid + "/logs");
            assertThat(response.statusCode()).as(guid).isEqualTo(404);
            assertThat(response.body()).contains("\"name\":\"TaskNotFound\"");
        }
        String pending = guid("task-logs");
        assertThat(http.send(HttpRequest.newBuilder(URI.create(url("/v1/tasks")))
                .header("Authorization", TestApi.AUTHORIZATION).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(TestApi.task(pending, "logs"))).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(201);

        HttpResponse<String> response = get("/v1/tasks/" + pending + "/logs?tail=5");
        assertThat(response.statusCode()).isEqualTo(409);
        assertThat(response.body()).contains("\"name\":\"InstanceNotOnCell\"", "PENDING");
        assertThat(get("/v1/tasks/" + pending + "/logs?stream=console").statusCode()).isEqualTo(400);
    }

    @Test
    void aCompletedTasksLogIsStillServedByTheCellItRanOn() throws Exception {
        String guid = guid("task-done");
        String cellId = "cell-" + UUID.randomUUID();
        presence.heartbeat(new CellRegistration(cellId, "z1", "127.0.0.1", new Resources(1024, 1024, 4),
                List.of("preloaded:host"), List.of(), List.of(), startCell()), Duration.ofMinutes(1));
        UUID epoch = tasks.submit(new TaskDefinition(guid, "logs", "preloaded:host",
                new Action(new RunAction("true", List.of(), null, List.of(), null)), List.of(), 1, 1, 0, 0, List.of(),
                null, null, null, null, null), Actor.service("test")).task().modificationTag().epoch();
        tasks.place(UUID.randomUUID(), Map.of(guid, cellId), Actor.service("auctioneer"));
        tasks.start(Map.of(guid, new TaskStart(cellId, epoch)), Actor.cell(cellId));
        tasks.complete(Map.of(guid, TaskCompletion.succeeded(cellId, "")), Actor.cell(cellId));

        HttpResponse<String> response = get("/v1/tasks/" + guid + "/logs?tail=2");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("[stdout] one", "[stdout] two");
        assertThat(cellRequests).anySatisfy(r -> assertThat(r).startsWith("/v1/cells/" + cellId + "/instances/"
                + epoch + "/logs?tail=2"));
    }

    @Test
    void thePreviousInstanceOfAnIndexIsServedByTheCellItRanOn() throws Exception {
        String guid = desire(1);
        String crashedOn = "cell-before-" + UUID.randomUUID();
        String previous = run(guid, crashedOn, startCell());
        ActualLrpKey key = ActualLrpKey.of(guid, 0);
        actuals.crash(key, InstanceOwner.of(previous, crashedOn), "exited with status 1", Actor.cell(crashedOn));
        run(guid, "cell-after-" + UUID.randomUUID(), null, "ig-replacement-" + guid);

        HttpResponse<String> response = get("/v1/actual_lrps/" + guid + "/index/0/logs?previous=true&tail=2");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("[stdout] one");
        assertThat(cellRequests).anySatisfy(r -> assertThat(r).startsWith("/v1/cells/" + crashedOn + "/instances/"
                + previous + "/logs?tail=2"));
        assertThat(get("/v1/actual_lrps/" + desire(1) + "/index/0/logs?previous=true").statusCode())
                .as("no instance ever ran").isEqualTo(404);
        assertThat(get("/v1/actual_lrps/" + guid + "/index/0/logs?previous=maybe").statusCode()).isEqualTo(400);
    }

    @Test
    void isInTheOpenApiDocument() throws Exception {
        String docs = http.send(HttpRequest.newBuilder(URI.create(url("/v3/api-docs"))).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(docs).contains("\"/v1/actual_lrps/{processGuid}/index/{index}/logs\"",
                "\"/v1/tasks/{taskGuid}/logs\"", "text/plain",
                "InstanceNotOnCell");
    }

    @Test
    void needsTheApisCredentials() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url("/v1/actual_lrps/a/index/0/logs")))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(401);
    }

    /** A cell's log server: two stdout lines; 404 for stderr (instance gone), 401 for rep (wrong secret). */
    private String startCell() throws IOException {
        cell = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        cell.createContext("/", exchange -> {
            try (exchange) {
                String query = exchange.getRequestURI().getRawQuery();
                cellRequests.add(exchange.getRequestURI() + " " + exchange.getRequestHeaders().getFirst("Authorization"));
                int status = query.contains("stream=stderr") ? 404 : query.contains("stream=rep") ? 401 : 200;
                exchange.sendResponseHeaders(status, 0);
                if (status == 200) {
                    OutputStream out = exchange.getResponseBody();
                    out.write("2025-01-31T10:00:00.000Z [stdout] one\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    out.write("2025-01-31T10:00:01.000Z [stdout] two\n".getBytes(StandardCharsets.UTF_8));
                }
            }
        });
        cell.start();
        return "http://127.0.0.1:" + cell.getAddress().getPort();
    }

    private String run(String guid, String cellId, String logEndpoint) {
        return run(guid, cellId, logEndpoint, "ig-" + guid);
    }

    private String run(String guid, String cellId, String logEndpoint, String instanceGuid) {
        presence.heartbeat(new CellRegistration(cellId, "z1", "127.0.0.1", new Resources(1024, 1024, 4),
                List.of("preloaded:host"), List.of(), List.of(), logEndpoint), Duration.ofMinutes(1));
        ActualLrpKey key = ActualLrpKey.of(guid, 0);
        InstanceOwner owner = InstanceOwner.of(instanceGuid, cellId);
        actuals.place(UUID.randomUUID(), Map.of(key, cellId), Actor.service("auctioneer"));
        actuals.claim(key, owner, Actor.cell(cellId));
        actuals.start(new StartedInstance(key, "logs", owner,
                new NetInfo("127.0.0.1", List.of(new NetInfo.PortMapping(8080, 61001)))), Actor.cell(cellId));
        return instanceGuid;
    }

    private String desire(int instances) throws Exception {
        String guid = guid("logs");
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(url("/v1/desired_lrps")))
                .header("Authorization", TestApi.AUTHORIZATION).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(desiredLrp(guid, "logs", instances))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).isEqualTo(201);
        return guid;
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(20))
                .header("Authorization", TestApi.AUTHORIZATION).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }
}
