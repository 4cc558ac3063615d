package io.drover.cli.cells;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.cli.json.Json;
import io.drover.cli.json.JsonNode;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one line {@code drover drain} and {@code undrain} print for a cell, from the API's cell. */
class DrainViewTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "EVACUATING | 3 | 1 | cell-z1 EVACUATING: 3 instances and 1 task left, deadline in 9m (asked by alice)",
            "EVACUATING | 1 | 0 | cell-z1 EVACUATING: 1 instance and 0 tasks left, deadline in 9m (asked by alice)",
            "DRAINED    | 0 | 0 | cell-z1 DRAINED: nothing runs there; it takes no work until drover undrain cell-z1" })
    void aDrainingCellSaysWhatIsLeftAndUntilWhen(String state, int instances, int tasks, String line) {
        JsonNode cell = Json.parse("""
                {"cell_id": "cell-z1", "state": "%s", "drain": {"started_at": "2026-03-01T11:59:00Z",
                 "deadline_at": "2026-03-01T12:09:30Z", "requested_by": "alice", "instances_left": %d,
                 "tasks_left": %d}}""".formatted(state, instances, tasks));

        assertThat(DrainView.line(cell, NOW)).isEqualTo(line);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "ACTIVE     | cell-z1 ACTIVE: it takes work",
            "EVACUATING | cell-z1 EVACUATING: no drain is asked; it takes work once its rep says so, unless the rep is stopping" })
    void aCellWithoutADrainSaysWhetherItTakesWork(String state, String line) {
        JsonNode cell = Json.parse("{\"cell_id\": \"cell-z1\", \"state\": \"" + state + "\", \"drain\": null}");

        assertThat(DrainView.line(cell, NOW)).isEqualTo(line);
    }
}
