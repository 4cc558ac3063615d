package io.drover.rep.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.RunAction;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.Executor;
import io.drover.rep.executor.simulated.SimulatedExecutorFactory;
import io.drover.rep.executor.simulated.SimulatedProperties;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The log server over a simulated cell: its secret, its errors, a tail, and a follow that ends with the instance. */
class LogServerTest {

    private static final String SECRET = "s3cret-for-tests";

    private final SimulatedExecutorFactory factory = new SimulatedExecutorFactory(SimulatedProperties.instant());
    private final Executor executor = factory.create("cell-a", "127.0.0.1", new Resources(1024, 1024, 3));
    private final LogServer server = LogServer.start(
            new LogServerProperties(true, "127.0.0.1", 0, 4, Duration.ofMinutes(5)), SECRET, "127.0.0.1",
            (cell, guid) -> "cell-a".equals(cell) ? executor.log(guid) : Optional.empty(), Clock.systemUTC());
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void close() {
        server.close();
        factory.close();
    }

    @Test
    void bindsTheCellsAddressAndAdvertisesIt() {
        assertThat(server.endpoint()).startsWith("http://127.0.0.1:").doesNotEndWith(":0");
    }

    @Test
    void everyRequestNeedsTheSharedSecret() throws Exception {
        assertThat(get("/v1/cells/cell-a/instances/x/logs", null).statusCode()).isEqualTo(401);
        assertThat(get("/v1/cells/cell-a/instances/x/logs", "Bearer wrong").statusCode()).isEqualTo(401);
        assertThat(get("/v1/cells/cell-a/instances/x/logs", "Basic " + SECRET).statusCode()).isEqualTo(401);
        assertThat(get("/v1/cells/cell-a/instances/x/logs", "Bearer " + SECRET).statusCode()).isEqualTo(404);
    }

    @Test
    void answersBadRequestsAndUnknownInstancesInTheApiErrorShape() throws Exception {
        HttpResponse<String> bad = get("/v1/cells/cell-a/instances/x/logs?tail=many", "Bearer " + SECRET);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("\"name\":\"InvalidRequest\"", "tail must be");
        HttpResponse<String> unknown = get("/v1/cells/cell-b/instances/x/logs", "Bearer " + SECRET);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).contains("InstanceNotFound");
    }

    @Test
    void servesTheTailAndFollowsUntilTheInstanceStops() throws Exception {
        executor.run(spec("ig-1"));
        await().until(() -> executor.container("ig-1").orElseThrow().state() == ContainerState.RUNNING);

        HttpResponse<String> tail = get("/v1/cells/cell-a/instances/ig-1/logs?tail=1", "Bearer " + SECRET);
        assertThat(tail.statusCode()).isEqualTo(200);
        assertThat(tail.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
        assertThat(tail.body().lines().toList()).singleElement().asString().endsWith(" [rep] running (simulated)");

        CompletableFuture<HttpResponse<java.util.stream.Stream<String>>> follow = http.sendAsync(
                request("/v1/cells/cell-a/instances/ig-1/logs?follow=true", "Bearer " + SECRET),
                HttpResponse.BodyHandlers.ofLines());
        HttpResponse<java.util.stream.Stream<String>> streaming = follow.get();
        assertThat(streaming.statusCode()).isEqualTo(200);
        executor.stop("ig-1", Duration.ZERO);
        List<String> lines = streaming.body().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).contains(" [rep] claimed by cell-a as instance ig-1");
        assertThat(lines.get(2)).endsWith(" [rep] stopped");
    }

    private HttpResponse<String> get(String path, String authorization) throws Exception {
        return http.send(request(path, authorization), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest request(String path, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.endpoint() + path))
                .timeout(Duration.ofSeconds(10));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return request.build();
    }

    private static ContainerSpec spec(String instanceGuid) {
        return new ContainerSpec(ActualLrpKey.of("app", 0), instanceGuid, new DesiredLrpDefinition("app", "d",
                "preloaded:host", 1, new Action(new RunAction("sleep", List.of("100"), null, null, null)), null, null,
                0, null, List.of(8080), 64, 10, 0, 0, null, null, null, null, null));
    }
}
