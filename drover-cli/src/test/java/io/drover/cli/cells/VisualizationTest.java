package io.drover.cli.cells;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.cli.json.Json;
import io.drover.cli.json.JsonNode;
import io.drover.cli.output.Output;
import java.util.List;
import org.junit.jupiter.api.Test;

class VisualizationTest {

    private final List<JsonNode> cells = List.of(json("{\"cell_id\":\"cell-z1\",\"zone\":\"z1\"}"),
            json("{\"cell_id\":\"cell-z2\",\"zone\":\"z2\"}"));
    private final List<JsonNode> actuals = List.of(json("{\"cell_id\":\"cell-z1\",\"state\":\"CLAIMED\"}"),
            json("{\"cell_id\":\"cell-z1\",\"state\":\"RUNNING\"}"), json("{\"state\":\"UNCLAIMED\"}"),
            json("{\"state\":\"CRASHED\"}"));

    @Test
    void aRowPerCellWithAMarkPerInstanceRunningFirst() {
        assertThat(Visualization.lines(cells, actuals, new Output(System.out, System.err, false, false)))
                .containsExactly("cell-z1    RC  2", "cell-z2      0", "(no cell)  UX  2", "",
                        "R running  C claimed (starting)  U unclaimed  X crashed");
    }

    @Test
    void onATerminalTheMarksAreColouredDots() {
        String line = Visualization.lines(cells, actuals, new Output(System.out, System.err, false, true)).get(0);
        assertThat(line).contains("\u001b[32m●", "\u001b[33m●");
    }

    @Test
    void asJsonEachCellCountsItsStates() {
        assertThat(Visualization.json(cells, actuals)).extracting(Object::toString).containsExactly(
                "{\"cell_id\":\"cell-z1\",\"zone\":\"z1\",\"instances\":2,\"states\":{\"CLAIMED\":1,\"RUNNING\":1}}",
                "{\"cell_id\":\"cell-z2\",\"zone\":\"z2\",\"instances\":0,\"states\":{}}",
                "{\"cell_id\":null,\"zone\":null,\"instances\":2,\"states\":{\"UNCLAIMED\":1,\"CRASHED\":1}}");
    }

    private static JsonNode json(String text) {
        return Json.parse(text);
    }
}
