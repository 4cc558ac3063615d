package io.drover.cli.routes;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.cli.json.Json;
import io.drover.cli.json.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouteListTest {

    @Test
    void eachHostnameListsTheRunningInstancesAtTheHostPortOfItsRoutesPort() {
        List<JsonNode> desired = List.of(
                Json.parse("{\"process_guid\": \"web\", \"routes\": {\"cf-router\": [{\"hostnames\": "
                        + "[\"Web.example.com\", \"a.example.com\"], \"port\": 8080}], \"other\": [1]}}"),
                Json.parse("{\"process_guid\": \"worker\", \"routes\": {\"tcp\": []}}"),
                Json.parse("{\"process_guid\": \"idle\", \"routes\": {\"cf-router\": [{\"hostnames\": "
                        + "[\"idle.example.com\"], \"port\": 8080}]}}"));
        List<JsonNode> actuals = List.of(
                actual("web", 1, "RUNNING", false, 61001),
                actual("web", 0, "RUNNING", false, 61000),
                actual("web", 0, "RUNNING", true, 61300),
                actual("web", 2, "CLAIMED", false, 0),
                actual("idle", 0, "CRASHED", false, 0));

        List<RouteList.Route> routes = RouteList.of(desired, actuals).routes();

        assertThat(routes).extracting(RouteList.Route::hostname)
                .containsExactly("a.example.com", "idle.example.com", "web.example.com");
        assertThat(routes.get(2).instances()).extracting(RouteList.Instance::where)
                .containsExactly("127.0.0.1:61000", "127.0.0.1:61300 (evacuating)", "127.0.0.1:61001");
        assertThat(routes.get(1).instances()).isEmpty();
    }

    private static JsonNode actual(String guid, int index, String state, boolean evacuating, int hostPort) {
        return Json.parse("{\"process_guid\": \"" + guid + "\", \"index\": " + index + ", \"state\": \"" + state
                + "\", \"evacuating\": " + evacuating + ", \"address\": \"127.0.0.1\", \"ports\": "
                + (hostPort == 0 ? "[]" : "[{\"container_port\": 8080, \"host_port\": " + hostPort + "}, "
                        + "{\"container_port\": 9090, \"host_port\": 1}]") + "}");
    }
}
