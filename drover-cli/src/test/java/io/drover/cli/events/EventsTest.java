package io.drover.cli.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.cli.json.Json;
import io.drover.cli.output.Output;
import io.drover.cli.session.UsageException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EventsTest {

    @Test
    void readsServerSentEventsAndSkipsComments() {
        SseEvent.Parser parser = new SseEvent.Parser();
        List<SseEvent> events = new ArrayList<>();
        for (String line : List.of(":connected", "", "id:1", "event:actual_lrp_changed", "data:{\"a\":1}", "",
                ":heartbeat", "", "id: 2", "event: desired_lrp_removed", "data: {", "data: }", "")) {
            SseEvent event = parser.accept(line);
            if (event != null) {
                events.add(event);
            }
        }
        assertThat(events).containsExactly(new SseEvent("1", "actual_lrp_changed", "{\"a\":1}"),
                new SseEvent("2", "desired_lrp_removed", "{\n}"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "desired_lrp_created | {\"desired_lrp\":{\"process_guid\":\"web\",\"instances\":3}} | web desired: 3 instance(s)",
            "desired_lrp_changed | {\"desired_lrp_before\":{\"process_guid\":\"web\",\"instances\":3},\"desired_lrp_after\":{\"process_guid\":\"web\",\"instances\":5}} | web scaled 3 -> 5",
            "desired_lrp_removed | {\"desired_lrp\":{\"process_guid\":\"web\"}} | web deleted",
            "actual_lrp_created  | {\"actual_lrp\":{\"process_guid\":\"web\",\"index\":2,\"state\":\"UNCLAIMED\"}} | web/2 UNCLAIMED",
            "actual_lrp_changed  | {\"actual_lrp_before\":{\"state\":\"CLAIMED\"},\"actual_lrp_after\":{\"process_guid\":\"web\",\"index\":0,\"state\":\"RUNNING\",\"cell_id\":\"cell-z1\",\"address\":\"127.0.0.1\",\"ports\":[{\"host_port\":61001}]}} | web/0 CLAIMED -> RUNNING on cell-z1 at 127.0.0.1:61001",
            "actual_lrp_changed  | {\"actual_lrp_before\":{\"state\":\"UNCLAIMED\"},\"actual_lrp_after\":{\"process_guid\":\"big\",\"index\":0,\"state\":\"UNCLAIMED\",\"placement_error\":\"insufficient resources: memory\"}} | big/0 UNCLAIMED (insufficient resources: memory)",
            "actual_lrp_removed  | {\"actual_lrp\":{\"process_guid\":\"web\",\"index\":1,\"cell_id\":\"cell-z2\"}} | web/1 removed on cell-z2",
            "actual_lrp_crashed  | {\"actual_lrp_after\":{\"process_guid\":\"web\",\"index\":0,\"crash_count\":2,\"crash_reason\":\"exited with status 7\"}} | web/0 crashed: exited with status 7 (crash 2)",
            "task_created        | {\"task\":{\"task_guid\":\"job\",\"state\":\"PENDING\"}} | job submitted",
            "task_changed        | {\"task_before\":{\"state\":\"RUNNING\"},\"task_after\":{\"task_guid\":\"job\",\"state\":\"COMPLETED\",\"cell_id\":\"cell-z1\",\"failed\":true,\"failure_reason\":\"exited with status 1\"}} | job RUNNING -> COMPLETED on cell-z1 (failed: exited with status 1)",
            "task_removed        | {\"task\":{\"task_guid\":\"job\"}} | job deleted",
            "deployment_changed  | {\"deployment_before\":{\"state\":\"RUNNING\"},\"deployment_after\":{\"process_guid\":\"web\",\"state\":\"SUCCESSFUL\",\"from_version\":1,\"to_version\":2}} | web deployment v1 -> v2 RUNNING -> SUCCESSFUL" })
    void summarisesEachTypeInOneLine(String type, String data, String summary) {
        assertThat(EventSummary.describe(type, Json.parse(data))).isEqualTo(summary);
    }

    @Test
    void anEventFromThePastIsShownAtTheTimeItsSubjectChanged() {
        assertThat(EventSummary.when(Json.parse("{\"actual_lrp_after\":{\"since\":1700000000000}}")))
                .contains(java.time.Instant.ofEpochMilli(1700000000000L));
        assertThat(EventSummary.when(Json.parse("{\"task\":{\"updated_at\":\"2025-01-01T00:00:00Z\"}}")))
                .contains(java.time.Instant.parse("2025-01-01T00:00:00Z"));
        assertThat(EventSummary.when(Json.parse("{\"desired_lrp\":{}}"))).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({ "30s, 30", "5m, 300", "1h, 3600" })
    void forTakesSecondsMinutesOrHours(String text, long seconds) {
        assertThat(EventsCommand.parseDuration(text)).isEqualTo(Duration.ofSeconds(seconds));
    }

    @ParameterizedTest
    @CsvSource({ "30", "0s", "-1m", "5d", "s" })
    void forRefusesAnythingElse(String text) {
        assertThatThrownBy(() -> EventsCommand.parseDuration(text)).isInstanceOf(UsageException.class);
    }
}
