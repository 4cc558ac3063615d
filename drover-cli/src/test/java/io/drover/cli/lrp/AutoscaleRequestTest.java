package io.drover.cli.lrp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.cli.session.UsageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AutoscaleRequestTest {

    @Test
    void flagsBecomeAPolicy() {
        AutoscaleRequest request = new AutoscaleRequest(false, 1, 10, 60, 80, null, "5m");
        assertThat(request.toJson().toString()).isEqualTo("{\"autoscaling\":{\"min_instances\":1,\"max_instances\":10,"
                + "\"target_cpu_percent\":60,\"target_memory_percent\":80,\"scale_down_delay\":300}}");
        assertThat(request.describe()).isEqualTo("1-10 instances at cpu 60%, memory 80%");
    }

    @Test
    void whatIsLeftOutIsTheApisDefaultAndDelaysMayBeSeconds() {
        assertThat(new AutoscaleRequest(false, null, 4, null, 70, "0", "90").toJson().toString()).isEqualTo(
                "{\"autoscaling\":{\"max_instances\":4,\"target_memory_percent\":70,\"scale_up_delay\":0,"
                        + "\"scale_down_delay\":90}}");
    }

    @Test
    void offRemovesThePolicy() {
        assertThat(new AutoscaleRequest(true, null, null, null, null, null, null).toJson().toString())
                .isEqualTo("{\"autoscaling\":null}");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "true  | 3  | 60 | '' | --off takes no other flag",
            "false | '' | 60 | '' | give --max N",
            "false | 3  | '' | '' | scale on what?",
            "false | 3  | 60 | 5x | --scale-down-delay takes a duration" })
    void saysWhatIsWrong(boolean off, String max, String cpu, String down, String message) {
        AutoscaleRequest request = new AutoscaleRequest(off, null, max.isEmpty() ? null : Integer.parseInt(max),
                cpu.isEmpty() ? null : Integer.parseInt(cpu), null, null, down.isEmpty() ? null : down);
        assertThatThrownBy(request::toJson).isInstanceOf(UsageException.class).hasMessageContaining(message);
    }
}
