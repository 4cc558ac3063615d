package io.drover.receptor.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.json.Json;
import io.drover.model.messaging.LifecycleEvent;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** SSE payloads (SPEC 5.6) built from the model's golden lifecycle events (copied from common-model's contracts). */
class SseEventsTest {

    @Test
    void aCreatedDesiredLrpIsStreamedInTheApiShape() throws IOException {
        JsonNode data = Json.tree(SseEvents.data(event("lifecycle-event-desired-created.json")));
        JsonNode desired = data.get("desired_lrp");
        assertThat(data.propertyNames()).containsExactly("desired_lrp");
        assertThat(desired.get("process_guid").stringValue()).isEqualTo("web-app");
        assertThat(desired.get("routes").get("cf-router").get(0).get("port").intValue()).isEqualTo(8080);
        assertThat(desired.get("check_definition").get("checks").get(0).get("http_check").get("path").stringValue())
                .isEqualTo("/health");
        assertThat(desired.get("modification_tag").get("index").intValue()).isEqualTo(2);
        assertThat(desired.get("created_at").stringValue()).isEqualTo("2026-03-01T12:00:00.250Z");
    }

    @Test
    void aCrashCarriesTheActualBeforeAndAfter() throws IOException {
        LifecycleEvent crashed = event("lifecycle-event-actual-crashed.json");
        JsonNode data = Json.tree(SseEvents.data(crashed));
        assertThat(data.propertyNames()).containsExactly("actual_lrp_before", "actual_lrp_after");
        assertThat(data.get("actual_lrp_after")).isEqualTo(crashed.after());
        assertThat(data.get("actual_lrp_before")).isEqualTo(crashed.before());
    }

    @Test
    void aRemovalCarriesWhatWasRemoved() throws IOException {
        LifecycleEvent created = event("lifecycle-event-desired-created.json");
        LifecycleEvent removed = new LifecycleEvent(created.eventId(), LifecycleEvent.DESIRED_LRP_REMOVED,
                created.after(), null, created.occurredAt());
        assertThat(Json.tree(SseEvents.data(removed)).get("desired_lrp").get("process_guid").stringValue())
                .isEqualTo("web-app");
    }

    @Test
    void anUnknownTypeIsSkipped() throws IOException {
        LifecycleEvent created = event("lifecycle-event-desired-created.json");
        assertThat(SseEvents.data(new LifecycleEvent(created.eventId(), "route_changed", null, null,
                created.occurredAt()))).isNull();
    }

    @Test
    void aCellChangeCarriesTheCellBeforeAndAfter() throws IOException {
        LifecycleEvent drained = event("lifecycle-event-cell-changed.json");
        JsonNode data = Json.tree(SseEvents.data(drained));
        assertThat(data.propertyNames()).containsExactly("cell_before", "cell_after");
        assertThat(data.get("cell_before").get("state").stringValue()).isEqualTo("ACTIVE");
        assertThat(data.get("cell_after").get("state").stringValue()).isEqualTo("EVACUATING");
        assertThat(data.get("cell_after").get("drain").get("requested_by").stringValue()).isEqualTo("ops");
    }

    @Test
    void aDeploymentChangeCarriesTheDeploymentBeforeAndAfter() throws IOException {
        LifecycleEvent created = event("lifecycle-event-desired-created.json");
        var after = Json.tree("{\"id\": \"d-1\", \"state\": \"PAUSED\"}");
        var data = Json.tree(SseEvents.data(new LifecycleEvent(created.eventId(), "deployment_changed",
                Json.tree("{\"id\": \"d-1\", \"state\": \"RUNNING\"}"), after, created.occurredAt())));
        assertThat(data.get("deployment_after").get("state").stringValue()).isEqualTo("PAUSED");
        assertThat(data.get("deployment_before").get("state").stringValue()).isEqualTo("RUNNING");
    }

    @Test
    void aTaskChangeCarriesTheTaskBeforeAndAfterAsTheApiShowsIt() throws IOException {
        LifecycleEvent completed = event("lifecycle-event-task-completed.json");
        JsonNode data = Json.tree(SseEvents.data(completed));
        assertThat(data.propertyNames()).containsExactly("task_before", "task_after");
        assertThat(data.get("task_after").get("state").stringValue()).isEqualTo("COMPLETED");
        assertThat(data.get("task_after").get("result").stringValue()).isEqualTo("42\n");
        LifecycleEvent created = new LifecycleEvent(completed.eventId(), LifecycleEvent.TASK_CREATED, null,
                completed.before(), completed.occurredAt());
        assertThat(Json.tree(SseEvents.data(created)).propertyNames()).containsExactly("task");
    }

    private static LifecycleEvent event(String name) throws IOException {
        try (InputStream in = SseEventsTest.class.getResourceAsStream("/contracts/" + name)) {
            return Json.read(new String(in.readAllBytes(), StandardCharsets.UTF_8), LifecycleEvent.class);
        }
    }
}
