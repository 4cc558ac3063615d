package io.drover.cli.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.cli.json.Json;
import io.drover.cli.output.Output;
import io.drover.cli.session.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TaskViewTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"state\":\"COMPLETED\",\"failed\":false,\"result\":\"42\\n\"}                    | ok: 42",
            "{\"state\":\"COMPLETED\",\"failed\":false,\"result\":\"\"}                         | ok",
            "{\"state\":\"RESOLVING\",\"failed\":true,\"failure_reason\":\"cancelled\"}           | failed: cancelled",
            "{\"state\":\"PENDING\",\"placement_error\":\"insufficient resources: memory\"}     | waiting: insufficient resources: memory",
            "{\"state\":\"PENDING\"}                                                           | ''",
            "{\"state\":\"RUNNING\",\"cell_id\":\"cell-z1\"}                                    | ''" })
    void theOutcomeSaysWhatCameOfATaskInAFewWords(String task, String outcome) {
        assertThat(TaskView.outcome(Json.parse(task))).isEqualTo(outcome);
    }

    @Test
    void aTableHasATaskALine() {
        Output output = new Output(new PrintStream(new ByteArrayOutputStream()), System.err, false, false);
        List<String> lines = TaskView.table(List.of(Json.parse("{\"task_guid\":\"job\",\"state\":\"COMPLETED\","
                + "\"domain\":\"batch\",\"cell_id\":\"cell-z2\",\"failed\":false,\"result\":\"42\",\"updated_at\":"
                + "\"2025-01-01T00:00:00Z\"}")), Instant.parse("2025-01-01T00:00:30Z"), output).lines();
        assertThat(lines).containsExactly("TASK  STATE      DOMAIN  CELL     OUTCOME  UPDATED",
                "job   COMPLETED  batch   cell-z2  ok: 42   30s ago");
        assertThat(TaskView.command(Json.parse("{\"serial\":{\"actions\":[]}}"))).isEqualTo("serial action");
    }

    @Test
    void theFlagsOfSubmitAreTheApisTaskAndACommandIsNeeded() {
        TaskRequest request = new TaskRequest("job", "batch", "preloaded:host", 64, 32, List.of("A=1"), "out.txt",
                List.of("sh", "-c", "echo 42 > out.txt"));
        assertThat(request.toJson().toString()).isEqualTo("{\"task_guid\":\"job\",\"domain\":\"batch\",\"rootfs\":"
                + "\"preloaded:host\",\"memory_mb\":64,\"disk_mb\":32,\"env\":[{\"name\":\"A\",\"value\":\"1\"}],"
                + "\"action\":{\"run\":{\"path\":\"sh\",\"args\":[\"-c\",\"echo 42 > out.txt\"]}},\"result_file\":"
                + "\"out.txt\"}");
        assertThatThrownBy(() -> new TaskRequest("job", "d", "r", 1, 1, List.of(), null, List.of()).toJson())
                .isInstanceOf(UsageException.class).hasMessageStartingWith("what should run?");
    }
}
