package io.drover.cluster;

import io.drover.model.json.Json;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/** The end-to-end tests' only way into the cluster: the receptor's public REST API, as a user would call it. */
final class Api {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;
    private final String authorization;

    Api(LocalCluster cluster) {
        this.baseUrl = cluster.receptorUrl();
        this.authorization = "Basic " + Base64.getEncoder().encodeToString(
                (cluster.username() + ":" + cluster.password()).getBytes(StandardCharsets.UTF_8));
    }

    HttpResponse<String> call(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(20)).header("Authorization", authorization);
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(method + " " + path, e);
        }
    }

    /**
     * Opens {@code GET /v1/events} and drains it on a thread of its own until closed: a listener, so that the
     * receptor's event stream follows the events (it reads nothing while nobody listens).
     */
    Closeable listenToEvents() {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/v1/events"))
                .header("Authorization", authorization).header("Accept", "text/event-stream").GET().build();
        try {
            HttpResponse<InputStream> response = http.send(request,
                    HttpResponse.BodyHandlers.ofInputStream());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("GET /v1/events: " + response.statusCode());
            }
            InputStream body = response.body();
            Thread drain = new Thread(() -> {
                try {
                    body.transferTo(OutputStream.nullOutputStream());
                } catch (IOException e) {
                    // closed
                }
            }, "test-event-listener");
            drain.setDaemon(true);
            drain.start();
            return body;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    int desire(String json) {
        return call("POST", "/v1/desired_lrps", json).statusCode();
    }

    int scale(String processGuid, int instances) {
        return call("PUT", "/v1/desired_lrps/" + processGuid, "{\"instances\": " + instances + "}").statusCode();
    }

    int delete(String processGuid) {
        return call("DELETE", "/v1/desired_lrps/" + processGuid, null).statusCode();
    }

    /** Marks a domain fresh for good, so that the converger may retire what it no longer desires. */
    int freshDomain(String domain) {
        return call("PUT", "/v1/domains/" + domain, null).statusCode();
    }

    /** process_guid -> instances of every desired LRP the receptor lists. */
    Map<String, Integer> desiredInstances() {
        Map<String, Integer> desired = new TreeMap<>();
        Json.tree(call("GET", "/v1/desired_lrps", null).body())
                .forEach(d -> desired.put(d.path("process_guid").asString(), d.path("instances").asInt()));
        return desired;
    }

    List<JsonNode> actuals(String processGuid) {
        HttpResponse<String> response = call("GET", "/v1/actual_lrps/" + processGuid, null);
        List<JsonNode> list = new ArrayList<>();
        Json.tree(response.body()).forEach(list::add);
        return list;
    }

    List<JsonNode> running(String processGuid) {
        return actuals(processGuid).stream().filter(a -> "RUNNING".equals(a.path("state").asString())).toList();
    }

    /** GET /v1/actual_lrps/{guid}/metrics: one entry per sampled index. */
    List<JsonNode> metrics(String processGuid) {
        List<JsonNode> list = new ArrayList<>();
        Json.tree(call("GET", "/v1/actual_lrps/" + processGuid + "/metrics", null).body()).forEach(list::add);
        return list;
    }

    List<JsonNode> cells() {
        List<JsonNode> list = new ArrayList<>();
        Json.tree(call("GET", "/v1/cells", null).body()).forEach(list::add);
        return list;
    }

    /** A desired LRP running {@code path args...} with the given instances and memory. */
    static String lrp(String processGuid, int instances, int memoryMb, String rootfs, String path, String... args) {
        StringBuilder argList = new StringBuilder();
        for (String arg : args) {
            argList.append(argList.isEmpty() ? "" : ", ").append(Json.write(arg));
        }
        return """
                {"process_guid": "%s", "domain": "e2e", "rootfs": "%s", "instances": %d, "memory_mb": %d,
                 "disk_mb": 16, "ports": [8080],
                 "action": {"run": {"path": "%s", "args": [%s]}}}""".formatted(processGuid, rootfs, instances,
                memoryMb, path, argList);
    }
}
