package io.drover.verify.check;

import static io.drover.verify.check.Calls.call;
import static io.drover.verify.check.Fixtures.fault;
import static io.drover.verify.check.Fixtures.meta;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.json.Json;
import io.drover.verify.history.Entry;
import io.drover.verify.history.History;
import io.drover.verify.history.Kinds;
import org.junit.jupiter.api.Test;

class TasksTest {

    private static final String BODY = "{\"task_guid\": \"t\", \"completion_callback_url\": \"http://127.0.0.1:1/cb\"}";
    private static final Entry.Call SUBMIT = call("c1", Kinds.TASK_SUBMIT, "t", "POST", "/v1/tasks", null, BODY, 0, 10,
            201, null, "{\"task_guid\": \"t\", \"state\": \"PENDING\"}");
    private static final Entry.Call RESUBMIT = call("c2", Kinds.TASK_RESUBMIT, "t", "POST", "/v1/tasks", null, BODY,
            20, 30, 200, null, "{\"task_guid\": \"t\", \"state\": \"RUNNING\"}");

    private static Entry.Call read(double at, String state, boolean failed) {
        return call("c1", Kinds.TASK_READ, "t", "GET", "/v1/tasks/t", null, null, at, at + 5, 200, null,
                "{\"task_guid\": \"t\", \"state\": \"" + state + "\", \"failed\": " + failed
                        + ", \"cell_id\": \"cell-z1\"}");
    }

    /** A run line at {@code at} ms into the run (the meta's start is epoch ms 1,000,000). */
    private static Entry.TaskRun run(String mark, double at) {
        return new Entry.TaskRun("t", mark, 1_000_000 + Math.round(at), "n");
    }

    private static Entry.Callback callback(int answered) {
        return new Entry.Callback("t", 5_000_000, answered, Json.tree("{\"task_guid\": \"t\", \"state\": \"COMPLETED\"}"));
    }

    @Test
    void aTaskRunOnceAndCalledBackIsFine() {
        assertThat(Tasks.check(History.of(meta(), SUBMIT, RESUBMIT, run("start", 100), run("end", 200),
                read(3000, "COMPLETED", false), callback(503), callback(200))).anomalies()).isEmpty();
    }

    @Test
    void aTaskThatRanTwiceIsCaught() {
        assertThat(Tasks.check(History.of(meta(), SUBMIT, RESUBMIT, run("start", 100), run("end", 200),
                run("start", 300), run("end", 400), callback(200))).anomalies()).singleElement()
                .satisfies(a -> assertThat(a.message()).isEqualTo("ran 2 times for one task record"));
    }

    @Test
    void aTaskRunAgainAfterItsDeletionIsToldApart() {
        Entry.Event first = new Entry.Event(1, "1", "task_created", Json.tree(
                "{\"task\": {\"task_guid\": \"t\", \"state\": \"PENDING\", \"modification_tag\": {\"epoch\": \"e1\"}}}"), 1);
        Entry.Event second = new Entry.Event(1, "2", "task_created", Json.tree(
                "{\"task\": {\"task_guid\": \"t\", \"state\": \"PENDING\", \"modification_tag\": {\"epoch\": \"e2\"}}}"), 2);
        assertThat(Tasks.check(History.of(meta(), SUBMIT, first, run("start", 100), run("end", 200), RESUBMIT, second,
                run("start", 300), run("end", 400))).anomalies()).singleElement()
                .satisfies(a -> assertThat(a.message()).contains("SPEC 13"));
    }

    @Test
    void aCompletedTaskWhoseCallbackNeverGotA2xxIsCaught() {
        assertThat(Tasks.check(History.of(meta(), SUBMIT, run("start", 100), run("end", 200),
                read(3000, "COMPLETED", false), callback(503))).anomalies()).singleElement()
                .satisfies(a -> assertThat(a.message()).contains("no callback"));
    }

    @Test
    void aTaskThatSaysItSucceededWithoutRunningIsCaught() {
        assertThat(Tasks.check(History.of(meta(), SUBMIT, read(3000, "COMPLETED", false), callback(200)))
                .anomalies()).singleElement().satisfies(a -> assertThat(a.message()).contains("never ran"));
    }

    @Test
    void aTaskStillRunningLongAfterItsActionEndedOnALiveCellIsCaught() {
        assertThat(Tasks.check(History.of(meta(), SUBMIT, run("start", 100), run("end", 200),
                read(5_000, "RUNNING", false))).anomalies()).isEmpty();
        assertThat(Tasks.check(History.of(meta(), SUBMIT, run("start", 100), run("end", 200),
                read(30_000, "RUNNING", false))).anomalies()).singleElement()
                .satisfies(a -> assertThat(a.message()).contains("RUNNING on live cell cell-z1"));
        assertThat(Tasks.check(History.of(meta(), SUBMIT, run("start", 100), run("end", 200),
                fault(FaultKinds.REP_KILL, "cell-z1", 150, 25_000), read(30_000, "RUNNING", false))).anomalies())
                .isEmpty();
    }
}
