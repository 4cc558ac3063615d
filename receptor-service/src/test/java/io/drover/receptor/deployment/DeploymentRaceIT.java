package io.drover.receptor.deployment;

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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * A deployment started while the same LRP is scaled or deleted (SPEC 12: a race is never a 5xx): every answer is a
 * success, 404 or 409 in the API's error shape, nothing is lost, and no deployment outlives its LRP.
 */
@ReceptorTest
class DeploymentRaceIT {

    private static final int ROUNDS = 60;
    private static final ExecutorService POOL = Executors.newFixedThreadPool(6);

    @LocalServerPort
    int port;
    @Autowired
    JdbcTemplate jdbc;

    private final HttpClient http = HttpClient.newHttpClient();

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    @Test
    void deploymentsRacingScalesAndDeletesAreAnsweredAsConflictsOrNotFoundNeverA5xx() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            boolean deleting = round % 2 == 0;
            String guid = guid("race");
            assertThat(send("POST", "/v1/desired_lrps", desiredLrp(guid, "apps", 2)).statusCode()).isEqualTo(201);
            String deployments = "/v1/desired_lrps/" + guid + "/deployments";
            List<Call> calls = new ArrayList<>(List.of(
                    new Call("POST", deployments, "{\"env\": [{\"name\": \"V\", \"value\": \"a\"}]}"),
                    new Call("POST", deployments, "{\"memory_mb\": 96}"),
                    new Call("PUT", "/v1/desired_lrps/" + guid, "{\"instances\": 3}"),
                    new Call("PUT", "/v1/desired_lrps/" + guid, "{\"annotation\": \"round " + round + "\"}")));
            if (deleting) {
                calls.add(new Call("DELETE", "/v1/desired_lrps/" + guid, null));
            }

            List<HttpResponse<String>> answers = together(calls);

            int deployed = 0;
            for (int i = 0; i < calls.size(); i++) {
                HttpResponse<String> answer = answers.get(i);
                String what = "round " + round + ": " + calls.get(i) + " answered " + answer.statusCode() + " "
                        + answer.body();
                assertThat(answer.statusCode()).as(what).isIn(201, 204, 404, 409);
                if (answer.statusCode() >= 400) {
                    JsonNode error = Json.tree(answer.body());
                    assertThat(error.path("name").isString() && error.path("message").isString()).as(what).isTrue();
                    assertThat(error.path("name").asString()).as(what)
                            .isIn("DesiredLRPNotFound", "ResourceConflict");
                }
                if (calls.get(i).method().equals("POST") && answer.statusCode() == 201) {
                    deployed++;
                }
            }
            List<Integer> versions = jdbc.queryForList("SELECT definition_version FROM desired_lrps "
                    + "WHERE process_guid = ?", Integer.class, guid);
            if (deleting) {
                assertThat(answers.get(4).statusCode()).as("round %d: the delete", round).isEqualTo(204);
                assertThat(versions).as("round %d: deleted", round).isEmpty();
            } else {
                assertThat(versions).as("round %d: one definition version per deployment answered 201", round)
                        .containsExactly(1 + deployed);
                assertThat(jdbc.queryForObject("SELECT count(*) FROM deployments WHERE process_guid = ?",
                        Integer.class, guid)).as("round %d: every deployment answered 201 is kept", round)
                        .isEqualTo(deployed);
            }
        }
        assertThat(jdbc.queryForObject("SELECT count(*) FROM deployments d WHERE NOT EXISTS "
                + "(SELECT 1 FROM desired_lrps l WHERE l.process_guid = d.process_guid)", Integer.class))
                .as("deployments of deleted LRPs").isZero();
    }

    /** Sends every call at once (threads released together); the answers in the order of the calls. */
    private List<HttpResponse<String>> together(List<Call> calls) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> futures = new ArrayList<>();
        for (Call call : calls) {
            futures.add(POOL.submit(() -> {
                go.await();
                return send(call.method(), call.path(), call.body());
            }));
        }
        go.countDown();
        List<HttpResponse<String>> answers = new ArrayList<>();
        for (Future<HttpResponse<String>> f : futures) {
            answers.add(f.get(60, TimeUnit.SECONDS));
        }
        return answers;
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Authorization", AUTHORIZATION).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private record Call(String method, String path, String body) {
        @Override
        public String toString() {
            return method + " " + path + (body == null ? "" : " " + body);
        }
    }
}
