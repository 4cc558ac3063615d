package io.drover.cli.lrp;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.cli.json.Json;
import io.drover.cli.json.JsonNode;
import io.drover.cli.output.Output;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusViewTest {

    private static final Instant NOW = Instant.parse("2025-01-31T12:00:00Z");
    private final Output plain = new Output(System.out, System.err, false, false);

    @Test
    void oneLinePerInstanceWithWhereWhenAndWhy() {
        List<JsonNode> actuals = List.of(
                json("{\"index\":0,\"state\":\"RUNNING\",\"cell_id\":\"cell-z1\",\"address\":\"127.0.0.1\","
                        + "\"ports\":[{\"container_port\":8080,\"host_port\":61003}],\"since\":"
                        + NOW.minusSeconds(180).toEpochMilli() + ",\"crash_count\":1,\"crash_reason\":\"exited with status 1\"}"),
                json("{\"index\":1,\"state\":\"CRASHED\",\"since\":" + NOW.minusSeconds(5).toEpochMilli()
                        + ",\"next_restart_at\":" + NOW.plusSeconds(25).toEpochMilli()
                        + ",\"crash_count\":3,\"crash_reason\":\"exited with status 7\"}"),
                json("{\"index\":2,\"state\":\"UNCLAIMED\",\"since\":" + NOW.toEpochMilli()
                        + ",\"crash_count\":0,\"placement_error\":\"insufficient resources: memory\"}"));
        assertThat(StatusView.table(actuals, NOW, plain).lines()).containsExactly(
                "INDEX  STATE                     CELL     ADDRESS          SINCE   CRASHES  LAST CRASH            PLACEMENT ERROR",
                "0      RUNNING                   cell-z1  127.0.0.1:61003  3m ago  1        exited with status 1  -",
                "1      CRASHED (restart in 25s)  -        -                5s ago  3        exited with status 7  -",
                "2      UNCLAIMED                 -        -                0s ago  0        -                     insufficient resources: memory");
    }

    @Test
    void anAutoscaledLrpSaysItsPolicyWhatTheAutoscalerMeasuredAndItsLastScale() {
        JsonNode lrp = json("{\"autoscaling\":{\"min_instances\":1,\"max_instances\":10,\"target_cpu_percent\":60,"
                + "\"target_memory_percent\":null},\"autoscaling_status\":{\"cpu_percent\":42.3,\"memory_percent\":null,"
                + "\"desired_instances\":3,\"condition\":\"scaling up\",\"last_scale_at\":\""
                + NOW.minusSeconds(120) + "\",\"last_scale_from\":1,\"last_scale_to\":3}}");
        assertThat(StatusView.autoscaling(lrp, NOW))
                .isEqualTo("autoscaling 1-10 at cpu 60%: now cpu 42.3%, wants 3 (scaling up); last 1 -> 3 2m ago");
        assertThat(StatusView.autoscaling(json("{\"autoscaling\":{\"min_instances\":2,\"max_instances\":4,"
                + "\"target_memory_percent\":80},\"autoscaling_status\":null}"), NOW))
                .isEqualTo("autoscaling 2-4 at memory 80%: not evaluated yet");
        assertThat(StatusView.autoscaling(json("{\"autoscaling\":null}"), NOW)).isNull();
    }

    @Test
    void aListCellShowsTheBoundsAndTargetsOrADash() {
        assertThat(StatusView.autoscalingCell(json("{\"autoscaling\":{\"min_instances\":1,\"max_instances\":10,"
                + "\"target_cpu_percent\":60,\"target_memory_percent\":null}}"))).isEqualTo("1-10 cpu 60%");
        assertThat(StatusView.autoscalingCell(json("{\"autoscaling\":{\"min_instances\":2,\"max_instances\":4,"
                + "\"target_cpu_percent\":50,\"target_memory_percent\":80}}"))).isEqualTo("2-4 cpu 50%, memory 80%");
        assertThat(StatusView.autoscalingCell(json("{\"autoscaling\":null}"))).isEqualTo("-");
        assertThat(StatusView.autoscalingCell(json("{}"))).isEqualTo("-");
    }

    @Test
    void theCommandIsQuotedLikeAShellWouldAndCut() {
        assertThat(StatusView.command(json("{\"action\":{\"run\":{\"path\":\"sh\",\"args\":[\"-c\",\"echo hi\"]}}}")))
                .isEqualTo("sh -c 'echo hi'");
        assertThat(StatusView.command(json("{\"action\":{\"run\":{\"path\":\"x\",\"args\":[\"" + "a".repeat(80)
                + "\"]}}}"))).hasSize(StatusView.COMMAND_WIDTH).endsWith("...");
    }

    static JsonNode json(String text) {
        return Json.parse(text);
    }
}
