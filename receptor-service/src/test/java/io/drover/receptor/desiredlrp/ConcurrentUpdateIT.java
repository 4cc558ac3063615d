package io.drover.receptor.desiredlrp;

import static io.drover.receptor.TestApi.AUTHORIZATION;
import static io.drover.receptor.TestApi.desiredLrp;
import static io.drover.receptor.TestApi.guid;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.json.Json;
import io.drover.receptor.ReceptorTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/** SPEC 12: 50 concurrent updates of one desired LRP; each is applied or answered 409, and none is lost. */
@ReceptorTest
class ConcurrentUpdateIT {

    private static final int REQUESTS = 50;

    @LocalServerPort
    int port;
    @Autowired
    JdbcTemplate jdbc;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void fiftyConcurrentPutsAreEachAppliedOrRejectedAndNoneIsLost() throws Exception {
        String guid = guid("concurrent");
        HttpResponse<String> created = send(HttpRequest.newBuilder(uri("/v1/desired_lrps"))
                .POST(HttpRequest.BodyPublishers.ofString(desiredLrp(guid, "apps", 1))));
        assertThat(created.statusCode()).isEqualTo(201);
        String initialTag = created.headers().firstValue("ETag").orElseThrow();

        ExecutorService pool = Executors.newFixedThreadPool(REQUESTS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> statuses = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            int n = i;
            statuses.add(pool.submit(() -> {
                HttpRequest.Builder put = HttpRequest.newBuilder(uri("/v1/desired_lrps/" + guid))
                        .PUT(HttpRequest.BodyPublishers.ofString("{\"annotation\": \"request-" + n + "\"}"));
                if (n % 2 == 0) {
                    put.header("If-Match", initialTag);
                }
                start.await();
                return send(put).statusCode();
            }));
        }
        start.countDown();
        List<String> applied = new ArrayList<>();
        int conflicts = 0;
        for (int i = 0; i < REQUESTS; i++) {
            int status = statuses.get(i).get();
            assertThat(status).as("request %d", i).isIn(204, 409);
            if (status == 204) {
                applied.add("request-" + i);
            } else {
                conflicts++;
            }
        }
        pool.shutdown();

        JsonNode finalState = Json.tree(send(HttpRequest.newBuilder(uri("/v1/desired_lrps/" + guid)).GET()).body());
        assertThat(applied).isNotEmpty().contains(finalState.get("annotation").stringValue());
        assertThat(finalState.get("modification_tag").get("index").longValue())
                .as("every 204 is exactly one applied version").isEqualTo(applied.size());
        assertThat(jdbc.queryForObject("SELECT count(*) FROM lrp_events WHERE process_guid = ? "
                + "AND event_type = 'desired_lrp_changed'", Integer.class, guid)).isEqualTo(applied.size());
        assertThat(applied.size() + conflicts).isEqualTo(REQUESTS);
        assertThat(applied.stream().filter(a -> Integer.parseInt(a.substring(8)) % 2 == 0))
                .as("at most one conditional request can hold the initial tag").hasSizeLessThanOrEqualTo(1);
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.header("Authorization", AUTHORIZATION).header("Content-Type", "application/json")
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
