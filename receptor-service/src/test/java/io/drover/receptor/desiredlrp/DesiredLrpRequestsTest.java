package io.drover.receptor.desiredlrp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.model.json.Json;
import io.drover.model.lrp.AutoscalingPolicy;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.receptor.TestApi;
import io.drover.receptor.web.ApiException;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** One row per rule of SPEC 5.2: a change to a valid request and the exact InvalidLRP message it must give. */
class DesiredLrpRequestsTest {

    private static final String OK = null;

    static Stream<Arguments> createRules() {
        return Stream.of(
                row("a valid request", b -> { }, OK),
                row("instances 0", b -> b.put("instances", 0), OK),
                row("instances 10,000", b -> b.put("instances", 10_000), OK),
                row("instances 10,001", b -> b.put("instances", 10_001), "Invalid field: instances"),
                row("instances -1", b -> b.put("instances", -1), "Invalid field: instances"),
                row("instances as a string", b -> b.put("instances", "3"), "Invalid field: instances"),
                row("instances fractional", b -> b.put("instances", 1.5), "Invalid field: instances"),
                row("instances beyond long", b -> b.set("instances", Json.tree("123456789012345678901234567890")),
                        "Invalid field: instances"),
                row("instances missing", b -> b.remove("instances"), "Invalid field: instances"),
                row("instances null", b -> b.putNull("instances"), "Invalid field: instances"),
                row("annotation 10 KiB", b -> b.put("annotation", "a".repeat(10 * 1024)), OK),
                row("annotation 10 KiB + 1", b -> b.put("annotation", "a".repeat(10 * 1024 + 1)),
                        "Invalid field: annotation"),
                row("annotation over 10 KiB in UTF-8 bytes", b -> b.put("annotation", "é".repeat(5 * 1024 + 1)),
                        "Invalid field: annotation"),
                row("annotation not a string", b -> b.put("annotation", 5), "Invalid field: annotation"),
                row("process_guid with a space", b -> b.put("process_guid", "my app"), "Invalid field: process_guid"),
                row("process_guid with a dot", b -> b.put("process_guid", "my.app"), "Invalid field: process_guid"),
                row("process_guid 128 characters", b -> b.put("process_guid", "a".repeat(128)), OK),
                row("process_guid 129 characters", b -> b.put("process_guid", "a".repeat(129)),
                        "Invalid field: process_guid"),
                row("process_guid empty", b -> b.put("process_guid", ""), "Invalid field: process_guid"),
                row("process_guid missing", b -> b.remove("process_guid"), "Invalid field: process_guid"),
                row("domain missing", b -> b.remove("domain"), "Invalid field: domain"),
                row("domain blank", b -> b.put("domain", " "), "Invalid field: domain"),
                row("domain 257 characters", b -> b.put("domain", "d".repeat(257)), "Invalid field: domain"),
                row("domain with NUL", b -> b.put("domain", "a\u0000b"), "Invalid field: domain"),
                row("rootfs missing", b -> b.remove("rootfs"), "Invalid field: rootfs"),
                row("rootfs without a scheme", b -> b.put("rootfs", "busybox"), "Invalid field: rootfs"),
                row("rootfs docker URI", b -> b.put("rootfs", "docker:///busybox"), OK),
                row("action missing", b -> b.remove("action"), "Invalid field: action"),
                row("action not an object", b -> b.put("action", "run"), "Invalid field: action"),
                row("unknown action kind", b -> b.set("action", Json.tree("{\"upload\": {\"from\": \"x\"}}")),
                        "Invalid field: action, Invalid field: action.upload"),
                row("two action kinds", b -> ((ObjectNode) b.get("action")).set("try", Json.tree(
                        "{\"action\": {\"run\": {\"path\": \"true\"}}}")), "Invalid field: action"),
                row("a composite action", b -> b.set("action", Json.tree("{\"serial\": {\"actions\": ["
                        + "{\"download\": {\"from\": \"file:///srv/app.tgz\", \"to\": \"app\"}}, "
                        + "{\"run\": {\"path\": \"app/serve\"}}]}}")), OK),
                row("a bad step of a serial action is named by its path", b -> b.set("action", Json.tree(
                        "{\"serial\": {\"actions\": [{\"run\": {\"path\": \"a\"}}, {\"run\": {}}]}}")),
                        "Invalid field: action.serial.actions[1].run.path"),
                row("the monitor is a run action only", b -> { b.remove("check_definition"); b.set("monitor",
                        Json.tree("{\"try\": {\"action\": {\"run\": {\"path\": \"true\"}}}}")); },
                        "Invalid field: monitor, Invalid field: monitor.try"),
                row("run without path", b -> ((ObjectNode) b.get("action").get("run")).remove("path"),
                        "Invalid field: action.run.path"),
                row("unknown run field", b -> ((ObjectNode) b.get("action").get("run")).put("shell", "bash"),
                        "Invalid field: action.run.shell"),
                row("run as root", b -> ((ObjectNode) b.get("action").get("run")).put("user", "root"), OK),
                row("run as uid:gid", b -> ((ObjectNode) b.get("action").get("run")).put("user", "1000:1000"), OK),
                row("run as a user name", b -> ((ObjectNode) b.get("action").get("run")).put("user", "vcap"),
                        "Invalid field: action.run.user"),
                row("args not strings", b -> ((ObjectNode) b.get("action").get("run")).set("args",
                        Json.tree("[1]")), "Invalid field: action.run.args"),
                row("nofile negative", b -> ((ObjectNode) b.get("action").get("run").get("resource_limits"))
                        .put("nofile", -1), "Invalid field: action.run.resource_limits.nofile"),
                row("env without name", b -> b.set("env", Json.tree("[{\"value\": \"x\"}]")),
                        "Invalid field: env[0].name"),
                row("env name with =", b -> b.set("env", Json.tree("[{\"name\": \"A=B\"}]")),
                        "Invalid field: env[0].name"),
                row("monitor as a run action", b -> { b.remove("check_definition"); b.set("monitor",
                        Json.tree("{\"run\": {\"path\": \"true\"}}")); }, OK),
                row("monitor and check_definition", b -> b.set("monitor",
                        Json.tree("{\"run\": {\"path\": \"true\"}}")), "Invalid field: check_definition"),
                row("unknown check kind", b -> b.set("check_definition",
                        Json.tree("{\"checks\": [{\"grpc_check\": {\"port\": 1}}]}")),
                        "Invalid field: check_definition.checks[0].grpc_check, "
                                + "Invalid field: check_definition.checks[0].tcp_check|http_check"),
                row("check port 0", b -> b.set("check_definition",
                        Json.tree("{\"checks\": [{\"http_check\": {\"port\": 0, \"path\": \"/\"}}]}")),
                        "Invalid field: check_definition.checks[0].http_check.port"),
                row("start_timeout negative", b -> b.put("start_timeout", -1), "Invalid field: start_timeout"),
                row("memory_mb negative", b -> b.put("memory_mb", -1), "Invalid field: memory_mb"),
                row("disk_mb negative", b -> b.put("disk_mb", -1), "Invalid field: disk_mb"),
                row("max_pids negative", b -> b.put("max_pids", -1), "Invalid field: max_pids"),
                row("cpu_weight 100", b -> b.put("cpu_weight", 100), OK),
                row("cpu_weight 101", b -> b.put("cpu_weight", 101), "Invalid field: cpu_weight"),
                row("port 0", b -> b.set("ports", Json.tree("[0]")), "Invalid field: ports"),
                row("port 65536", b -> b.set("ports", Json.tree("[65536]")), "Invalid field: ports"),
                row("duplicate ports", b -> b.set("ports", Json.tree("[8080, 8080]")), "Invalid field: ports"),
                row("placement tag not a string", b -> b.set("placement_tags", Json.tree("[1]")),
                        "Invalid field: placement_tags"),
                row("routes not an object", b -> b.set("routes", Json.tree("[\"a\"]")), "Invalid field: routes"),
                row("routes over 128 KiB", b -> b.set("routes", Json.tree("{\"r\": \"" + "x".repeat(128 * 1024)
                        + "\"}")), "Invalid field: routes"),
                row("routes 64 levels deep", b -> b.set("routes", Json.tree(nested(64))), OK),
                row("routes 65 levels deep", b -> b.set("routes", Json.tree(nested(65))), "Invalid field: routes"),
                row("log_guid 257 characters", b -> b.put("log_guid", "l".repeat(257)), "Invalid field: log_guid"),
                row("unknown top-level field", b -> b.put("procss_guid", "typo"), "Invalid field: procss_guid"),
                row("read-only field in a create", b -> b.put("modification_tag", 1),
                        "Invalid field: modification_tag"),
                row("several bad fields, each named", b -> b.put("instances", 10_001).put("rootfs", "x"),
                        "Invalid field: instances, Invalid field: rootfs"),
                row("an autoscaling policy", b -> b.set("autoscaling", Json.tree(POLICY)), OK),
                row("a policy of a maximum and a CPU target, the rest by default", b -> b.set("autoscaling",
                        Json.tree("{\"max_instances\": 4, \"target_cpu_percent\": 1000}")), OK),
                row("a policy of a memory target", b -> b.set("autoscaling",
                        Json.tree("{\"max_instances\": 4, \"target_memory_percent\": 100}")), OK),
                row("autoscaling null is no policy", b -> b.putNull("autoscaling"), OK),
                row("autoscaling not an object", b -> b.put("autoscaling", "on"), "Invalid field: autoscaling"),
                row("min above max names both", b -> b.set("autoscaling", policy("\"min_instances\": 5, "
                        + "\"max_instances\": 4")), "Invalid field: autoscaling.max_instances, "
                        + "Invalid field: autoscaling.min_instances"),
                row("max above the instance limit", b -> b.set("autoscaling", policy("\"max_instances\": 10001")),
                        "Invalid field: autoscaling.max_instances"),
                row("max missing", b -> b.set("autoscaling", Json.tree("{\"target_cpu_percent\": 50}")),
                        "Invalid field: autoscaling.max_instances"),
                row("min zero", b -> b.set("autoscaling", policy("\"min_instances\": 0")),
                        "Invalid field: autoscaling.min_instances"),
                row("a CPU target of 0", b -> b.set("autoscaling", policy("\"target_cpu_percent\": 0")),
                        "Invalid field: autoscaling.target_cpu_percent"),
                row("a CPU target above 1000", b -> b.set("autoscaling", policy("\"target_cpu_percent\": 1001")),
                        "Invalid field: autoscaling.target_cpu_percent"),
                row("a memory target above 100", b -> b.set("autoscaling",
                        policy("\"target_memory_percent\": 101")), "Invalid field: autoscaling.target_memory_percent"),
                row("no target names both", b -> b.set("autoscaling", Json.tree("{\"max_instances\": 4, "
                        + "\"target_cpu_percent\": null}")), "Invalid field: autoscaling.target_cpu_percent, "
                        + "Invalid field: autoscaling.target_memory_percent"),
                row("a negative delay", b -> b.set("autoscaling", policy("\"scale_down_delay\": -1")),
                        "Invalid field: autoscaling.scale_down_delay"),
                row("a delay above a day", b -> b.set("autoscaling", policy("\"scale_up_delay\": 86401")),
                        "Invalid field: autoscaling.scale_up_delay"),
                row("an unknown policy field", b -> b.set("autoscaling", policy("\"target_cpu\": 5")),
                        "Invalid field: autoscaling.target_cpu"),
                row("instances outside the policy's range", b -> b.put("instances", 11).set("autoscaling",
                        Json.tree(POLICY)), "Invalid field: instances"),
                row("a memory target of no memory limit", b -> b.put("memory_mb", 0).set("autoscaling",
                        Json.tree("{\"max_instances\": 4, \"target_memory_percent\": 80}")),
                        "Invalid field: autoscaling.target_memory_percent"),
                row("every bad policy field at once", b -> b.set("autoscaling", Json.tree("{\"min_instances\": 0, "
                        + "\"max_instances\": 10001, \"target_cpu_percent\": 0, \"target_memory_percent\": 101}")),
                        "Invalid field: autoscaling.max_instances, Invalid field: autoscaling.min_instances, "
                        + "Invalid field: autoscaling.target_cpu_percent, "
                        + "Invalid field: autoscaling.target_memory_percent"));
    }

    private static final String POLICY = """
            {"min_instances": 1, "max_instances": 10, "target_cpu_percent": 60, "target_memory_percent": null,
             "scale_up_delay": 0, "scale_down_delay": 300}""";

    /** The policy above with one field replaced (or added). */
    private static JsonNode policy(String field) {
        ObjectNode policy = (ObjectNode) Json.tree(POLICY);
        ((ObjectNode) Json.tree("{" + field + "}")).properties().forEach(e -> policy.set(e.getKey(), e.getValue()));
        return policy;
    }

    @Test
    void aCreatedPolicyReadsAsGivenWithItsDefaults() {
        ObjectNode body = (ObjectNode) Json.tree(TestApi.desiredLrp("web-1", "apps", 3));
        body.set("autoscaling", Json.tree("{\"max_instances\": 4, \"target_cpu_percent\": 50}"));
        assertThat(DesiredLrpRequests.create(body).autoscaling())
                .isEqualTo(new AutoscalingPolicy(1, 4, 50, null, 0, 300));
    }

    @Test
    void anUpdateTellsAnAbsentPolicyFromARemovedOne() {
        assertThat(DesiredLrpRequests.update(Json.tree("{\"instances\": 2}")).change().autoscaling()).isNull();
        assertThat(DesiredLrpRequests.update(Json.tree("{\"autoscaling\": null}")).change().autoscaling())
                .isEqualTo(Optional.empty());
        assertThat(DesiredLrpRequests.update(Json.tree("{\"autoscaling\": " + POLICY + "}")).change().autoscaling())
                .isEqualTo(Optional.of(new AutoscalingPolicy(1, 10, 60, null, 0, 300)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("createRules")
    void createRequestRule(String rule, Consumer<ObjectNode> change, String expectedMessage) {
        ObjectNode body = (ObjectNode) Json.tree(TestApi.desiredLrp("web-1", "apps", 3));
        change.accept(body);
        if (expectedMessage == null) {
            DesiredLrpDefinition definition = DesiredLrpRequests.create(body);
            assertThat(definition.processGuid()).isEqualTo(body.get("process_guid").stringValue());
        } else {
            assertThatThrownBy(() -> DesiredLrpRequests.create(body)).isInstanceOf(ApiException.class)
                    .hasMessage(expectedMessage)
                    .extracting(e -> ((ApiException) e).error().name()).isEqualTo("InvalidLRP");
        }
    }

    static Stream<Arguments> routeRules() {
        return Stream.of(
                Arguments.of("{\"cf-router\": [{\"hostnames\": [\"web.example.com\", \"a-1.b\"], \"port\": 8080}]}", OK),
                Arguments.of("{\"cf-router\": [], \"tcp-router\": {\"anything\": [1]}}", OK),
                Arguments.of("{\"cf-router\": {}}", "Invalid field: routes.cf-router"),
                Arguments.of("{\"cf-router\": [\"web.example.com\"]}", "Invalid field: routes.cf-router[0]"),
                Arguments.of("{\"cf-router\": [{\"port\": 8080}]}", "Invalid field: routes.cf-router[0].hostnames"),
                Arguments.of("{\"cf-router\": [{\"hostnames\": [], \"port\": 8080}]}",
                        "Invalid field: routes.cf-router[0].hostnames"),
                Arguments.of("{\"cf-router\": [{\"hostnames\": [\"ok.example.com\", \"-bad.example.com\", "
                        + "\"under_score.example\", \"a..b\", \"" + "x".repeat(64) + ".example\"], \"port\": 8080}]}",
                        "Invalid field: routes.cf-router[0].hostnames[1], Invalid field: routes.cf-router[0].hostnames[2], "
                        + "Invalid field: routes.cf-router[0].hostnames[3], "
                        + "Invalid field: routes.cf-router[0].hostnames[4]"),
                Arguments.of("{\"cf-router\": [{\"hostnames\": [\"web.example.com\"], \"port\": 9090}]}",
                        "Invalid field: routes.cf-router[0].port"),
                Arguments.of("{\"cf-router\": [{\"hostnames\": [\"web.example.com\"], \"port\": \"8080\"}]}",
                        "Invalid field: routes.cf-router[0].port"),
                Arguments.of("{\"cf-router\": [{\"hostnames\": [\"web.example.com\"]}]}",
                        "Invalid field: routes.cf-router[0].port"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("routeRules")
    void routesOfTheRouterAreCheckedAgainstThePorts(String routes, String expectedMessage) {
        ObjectNode body = (ObjectNode) Json.tree(TestApi.desiredLrp("web-1", "apps", 3));
        body.set("ports", Json.tree("[8080]"));
        body.set("routes", Json.tree(routes));
        if (expectedMessage == null) {
            assertThat(DesiredLrpRequests.create(body).routes()).isNotNull();
        } else {
            assertThatThrownBy(() -> DesiredLrpRequests.create(body)).isInstanceOf(ApiException.class)
                    .hasMessage(expectedMessage)
                    .extracting(e -> ((ApiException) e).error().name()).isEqualTo("InvalidRequest");
        }
    }

    static Stream<Arguments> updateRules() {
        return Stream.of(
                Arguments.of("{\"instances\": 5}", OK),
                Arguments.of("{\"instances\": 10000, \"annotation\": \"x\", \"routes\": {}}", OK),
                Arguments.of("{}", OK),
                Arguments.of("{\"instances\": 10001}", "Invalid field: instances"),
                Arguments.of("{\"annotation\": \"" + "a".repeat(10 * 1024 + 1) + "\"}", "Invalid field: annotation"),
                Arguments.of("{\"routes\": \"r\"}", "Invalid field: routes"),
                Arguments.of("{\"rootfs\": \"preloaded:x\", \"memory_mb\": 1}",
                        "Invalid field: memory_mb, Invalid field: rootfs"),
                Arguments.of("{\"modification_tag\": {\"epoch\": \"nope\", \"index\": 1}}",
                        "Invalid field: modification_tag.epoch"),
                Arguments.of("{\"autoscaling\": null}", OK),
                Arguments.of("{\"autoscaling\": {\"max_instances\": 3, \"target_cpu_percent\": 70}, "
                        + "\"instances\": 2}", OK),
                Arguments.of("{\"autoscaling\": {\"max_instances\": 3, \"min_instances\": 4, "
                        + "\"target_cpu_percent\": 70}}", "Invalid field: autoscaling.max_instances, "
                        + "Invalid field: autoscaling.min_instances"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("updateRules")
    void updateRequestRule(String body, String expectedMessage) {
        JsonNode tree = Json.tree(body);
        if (expectedMessage == null) {
            assertThat(DesiredLrpRequests.update(tree).change()).isNotNull();
        } else {
            assertThatThrownBy(() -> DesiredLrpRequests.update(tree)).hasMessage(expectedMessage);
        }
    }

    private static Arguments row(String rule, Consumer<ObjectNode> change, String expectedMessage) {
        return Arguments.of(rule, change, expectedMessage);
    }

    /** A routes object {@code depth} levels deep: {@code {"r": {"r": ... []}}}. */
    private static String nested(int depth) {
        return "{\"r\": ".repeat(depth - 1) + "[]" + "}".repeat(depth - 1);
    }
}
