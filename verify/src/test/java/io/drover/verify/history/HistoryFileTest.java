package io.drover.verify.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.json.Json;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryFileTest {

    @TempDir
    Path dir;

    @Test
    void everyKindOfEntryReadsBackAsItWasWritten() {
        List<Entry> entries = List.of(
                new Entry.Meta("run", 17, 1_000, "test", List.of("a", "b"), new Entry.Timings(10, 3, 2, 90, 1)),
                new Entry.Call("c1", Kinds.UPDATE_IF_MATCH, "a", "PUT", "/v1/desired_lrps/a", "\"e:1\"",
                        "{\"annotation\": \"x\"}", 10, 20, 204, "\"e:2\"", "", null, -1),
                new Entry.Event(1, "7", "actual_lrp_created", Json.tree("{\"actual_lrp\": {\"index\": 0}}"), 30),
                new Entry.Stream(1, "opened", 5, null),
                new Entry.Probe(3, "process", "a", 0, "127.0.0.1:64001", 4242, "cell-z1", "i1", false, 40, 41,
                        Json.tree("{\"instance_guid\": \"i1\"}"), null),
                new Entry.Fault("rep-kill", "cell-z2", 50, 60, "note"),
                new Entry.Callback("t", 70, 503, Json.tree("{\"task_guid\": \"t\"}")),
                new Entry.Snapshot(80, Json.tree("[]"), Json.tree("[]"), Json.tree("[]"), Json.tree("[]"),
                        Json.tree("{}"), List.of(new Entry.WorkloadProcess(1, "a", 0, "i1", "l", "cell-z1", 64001))),
                new Entry.TaskRun("t", "start", 1_234, "99"), new Entry.Phase("healed", 90));
        Path file = dir.resolve("run.jsonl");
        try (HistoryFile history = HistoryFile.create(file)) {
            entries.forEach(history::add);
        }
        assertThat(HistoryFile.read(file).entries()).isEqualTo(entries);
        assertThat(HistoryFile.write(entries.get(1))).startsWith("{\"type\":\"call\"");
    }
}
