package io.drover.receptor;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/** Shared test vocabulary: credentials, unique process guids and a valid desired LRP body. */
public final class TestApi {

    public static final String USERNAME = "test-user";
    public static final String PASSWORD = "test-secret";
    public static final String LOGS_SECRET = "logs-secret-for-tests";
    public static final String AUTHORIZATION = "Basic "
            + Base64.getEncoder().encodeToString((USERNAME + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));

    private TestApi() {
    }

    public static String guid(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public static String desiredLrp(String processGuid, String domain, int instances) {
        return """
                {"process_guid": "%s", "domain": "%s", "rootfs": "preloaded:host", "instances": %d,
                 "action": {"run": {"path": "sleep", "args": ["1000"], "env": [{"name": "A", "value": "1"}],
                                    "resource_limits": {"nofile": 1024}}},
                 "check_definition": {"checks": [{"tcp_check": {"port": 8080, "connect_timeout_ms": 500}}]},
                 "ports": [8080], "memory_mb": 128, "disk_mb": 256, "cpu_weight": 10, "start_timeout": 60,
                 "placement_tags": ["blue"], "routes": {"http": ["web.example.com"]}, "annotation": "v1",
                 "log_guid": "log-1", "metrics_guid": "metrics-1"}
                """.formatted(processGuid, domain, instances);
    }

    public static String task(String taskGuid, String domain) {
        return """
                {"task_guid": "%s", "domain": "%s", "rootfs": "preloaded:host",
                 "action": {"serial": {"actions": [
                     {"download": {"from": "https://example.com/tool.tgz", "to": "tool", "cache_key": "tool-v1"}},
                     {"try": {"action": {"timeout": {"timeout_ms": 5000,
                         "action": {"run": {"path": "sh", "args": ["-c", "tool/prepare"]}}}}}},
                     {"emit_progress": {"start_message": "computing", "success_message": "computed",
                         "failure_message_prefix": "failed to compute",
                         "action": {"codependent": {"actions": [
                             {"run": {"path": "sh", "args": ["-c", "echo 42 > out/result.txt"]}},
                             {"parallel": {"actions": [{"run": {"path": "true"}}]}}]}}}}]}},
                 "env": [{"name": "MODE", "value": "full"}], "memory_mb": 64, "disk_mb": 32, "cpu_weight": 50,
                 "max_pids": 20, "placement_tags": ["blue"], "result_file": "out/result.txt",
                 "completion_callback_url": "https://example.com/done", "annotation": "nightly",
                 "log_guid": "log-1", "metrics_guid": "metrics-1"}
                """.formatted(taskGuid, domain);
    }

    /** Adds the test credentials and a JSON body. */
    public static MockHttpServletRequestBuilder json(MockHttpServletRequestBuilder request, String body) {
        return authed(request).contentType(MediaType.APPLICATION_JSON).content(body);
    }

    public static MockHttpServletRequestBuilder authed(MockHttpServletRequestBuilder request) {
        return request.header(HttpHeaders.AUTHORIZATION, AUTHORIZATION);
    }
}
