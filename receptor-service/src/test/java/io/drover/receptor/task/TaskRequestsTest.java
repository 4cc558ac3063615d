package io.drover.receptor.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.model.json.Json;
import io.drover.model.lrp.Action;
import io.drover.model.task.TaskDefinition;
import io.drover.receptor.TestApi;
import io.drover.receptor.web.ApiException;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

/** One row per rule of a task submission: a change to a valid request and the exact InvalidTask message it gives. */
class TaskRequestsTest {

    private static final String OK = null;

    static Stream<Arguments> rules() {
        return Stream.of(
                row("a valid request with every kind of action", b -> { }, OK),
                row("the smallest request", b -> {
                    b.retain("task_guid", "domain", "rootfs");
                    b.set("action", Json.tree("{\"run\": {\"path\": \"true\"}}"));
                }, OK),
                row("task_guid with a dot", b -> b.put("task_guid", "a.b"), "Invalid field: task_guid"),
                row("task_guid 129 characters", b -> b.put("task_guid", "t".repeat(129)), "Invalid field: task_guid"),
                row("task_guid missing", b -> b.remove("task_guid"), "Invalid field: task_guid"),
                row("domain missing", b -> b.remove("domain"), "Invalid field: domain"),
                row("rootfs without a scheme", b -> b.put("rootfs", "host"), "Invalid field: rootfs"),
                row("action missing", b -> b.remove("action"), "Invalid field: action"),
                row("a step of a serial without a path", b -> steps(b).set(1, Json.tree("{\"run\": {}}")),
                        "Invalid field: action.serial.actions[1].run.path"),
                row("an unknown kind deep inside", b -> steps(b).set(0, Json.tree("{\"upload\": {}}")),
                        "Invalid field: action.serial.actions[0], Invalid field: action.serial.actions[0].upload"),
                row("an empty serial", b -> b.set("action", Json.tree("{\"serial\": {\"actions\": []}}")),
                        "Invalid field: action.serial.actions"),
                row("a step that is no object", b -> steps(b).set(0, Json.tree("\"run\"")),
                        "Invalid field: action.serial.actions[0]"),
                row("a timeout of 0 ms", b -> steps(b).set(1, Json.tree("{\"timeout\": {\"timeout_ms\": 0, "
                        + "\"action\": {\"run\": {\"path\": \"true\"}}}}")),
                        "Invalid field: action.serial.actions[1].timeout.timeout_ms"),
                row("a try with nothing to try", b -> steps(b).set(1, Json.tree("{\"try\": {}}")),
                        "Invalid field: action.serial.actions[1].try.action"),
                row("a download from ftp", b -> steps(b).set(0, Json.tree("{\"download\": {\"from\": "
                        + "\"ftp://example.com/a.tgz\", \"to\": \"a\"}}")),
                        "Invalid field: action.serial.actions[0].download.from"),
                row("a download out of the instance directory", b -> steps(b).set(0, Json.tree("{\"download\": "
                        + "{\"from\": \"file:///srv/a.tgz\", \"to\": \"../a\"}}")),
                        "Invalid field: action.serial.actions[0].download.to"),
                row("actions nested 33 deep", b -> b.set("action", Json.tree(nestedTry(33))),
                        "Invalid field: action" + ".try.action".repeat(32)),
                row("actions nested 32 deep", b -> b.set("action", Json.tree(nestedTry(32))), OK),
                row("result_file escaping the directory", b -> b.put("result_file", "../../etc/passwd"),
                        "Invalid field: result_file"),
                row("result_file absolute", b -> b.put("result_file", "/tmp/result"), "Invalid field: result_file"),
                row("result_file the directory itself", b -> b.put("result_file", "out/.."),
                        "Invalid field: result_file"),
                row("result_file inside after ..", b -> b.put("result_file", "out/../result.txt"), OK),
                row("callback URL not http", b -> b.put("completion_callback_url", "ftp://example.com/x"),
                        "Invalid field: completion_callback_url"),
                row("callback URL relative", b -> b.put("completion_callback_url", "/done"),
                        "Invalid field: completion_callback_url"),
                row("callback URL not a URL", b -> b.put("completion_callback_url", "http://exa mple.com"),
                        "Invalid field: completion_callback_url"),
                row("cpu_weight 101", b -> b.put("cpu_weight", 101), "Invalid field: cpu_weight"),
                row("memory_mb negative", b -> b.put("memory_mb", -1), "Invalid field: memory_mb"),
                row("annotation over 10 KiB", b -> b.put("annotation", "a".repeat(10 * 1024 + 1)),
                        "Invalid field: annotation"),
                row("an LRP field", b -> b.put("instances", 3), "Invalid field: instances"),
                row("several bad fields, each named", b -> b.put("cpu_weight", -1).put("result_file", "/x"),
                        "Invalid field: cpu_weight, Invalid field: result_file"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void submissionRule(String rule, Consumer<ObjectNode> change, String expectedMessage) {
        ObjectNode body = (ObjectNode) Json.tree(TestApi.task("t-1", "batch"));
        change.accept(body);
        if (expectedMessage == null) {
            TaskDefinition definition = TaskRequests.create(body);
            assertThat(definition.taskGuid()).isEqualTo("t-1");
        } else {
            assertThatThrownBy(() -> TaskRequests.create(body)).isInstanceOf(ApiException.class)
                    .hasMessage(expectedMessage)
                    .extracting(e -> ((ApiException) e).error().name()).isEqualTo("InvalidTask");
        }
    }

    @org.junit.jupiter.api.Test
    void theWholeTreeIsKept() {
        TaskDefinition definition = TaskRequests.create(Json.tree(TestApi.task("t-1", "batch")));

        assertThat(definition.action().kind()).isEqualTo(Action.Kind.SERIAL);
        assertThat(definition.action().runs()).hasSize(3);
        assertThat(definition.action().serial().actions().get(0).download().cacheKey()).isEqualTo("tool-v1");
        assertThat(definition.resultFile()).isEqualTo("out/result.txt");
    }

    private static tools.jackson.databind.node.ArrayNode steps(ObjectNode body) {
        return (tools.jackson.databind.node.ArrayNode) body.get("action").get("serial").get("actions");
    }

    private static String nestedTry(int depth) {
        return "{\"try\": {\"action\": ".repeat(depth - 1) + "{\"run\": {\"path\": \"true\"}}" + "}}".repeat(depth - 1);
    }

    private static Arguments row(String rule, Consumer<ObjectNode> change, String expectedMessage) {
        return Arguments.of(rule, change, expectedMessage);
    }
}
