package io.drover.verify.workload;

import io.drover.model.json.Json;
import java.nio.file.Path;

/**
 * The JSON the workload sends. An instance is a tiny HTTP server that answers, on {@code $PORT}, what it runs: its
 * process guid ({@code PG} in its environment), index and instance guid (Drover's own variables) and the label of its
 * definition ({@code LABEL}); it listens on {@code BIND} (loopback on the local cluster; every interface in a rep's
 * container, whose ports are published on the host); an HTTP check makes RUNNING mean serving. A task appends a
 * {@code start} and an
 * {@code end} line to the run's task file. The marker among the arguments lets the checker find every such process on
 * the machine, whatever the API says.
 */
public final class Bodies {

    public static final String DOMAIN = "verify";
    public static final String LOOPBACK = "127.0.0.1";
    static final String SERVER = """
            import http.server, json, os
            B = json.dumps({"process_guid": os.environ["PG"], "index": int(os.environ["INSTANCE_INDEX"]),
                "instance_guid": os.environ["INSTANCE_GUID"], "label": os.environ["LABEL"], "pid": os.getpid()}).encode()
            class H(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    self.send_response(200); self.send_header("Content-Length", str(len(B))); self.end_headers()
                    self.wfile.write(B)
                def log_message(self, *args):
                    pass
            http.server.ThreadingHTTPServer((os.environ["BIND"], int(os.environ["PORT"])), H).serve_forever()
            """;
    private static final String CHECK = "{\"checks\": [{\"http_check\": {\"port\": 8080, \"path\": \"/\", "
            + "\"request_timeout_ms\": 1000}}]}";

    private Bodies() {
    }

    /** A desired LRP of {@code instances} web servers labelled {@code label}, on the loopback interface. */
    public static String lrp(String guid, int instances, String label, String marker) {
        return lrp(guid, instances, label, marker, LOOPBACK);
    }

    /** A desired LRP of {@code instances} web servers labelled {@code label}, listening on {@code bind}. */
    public static String lrp(String guid, int instances, String label, String marker, String bind) {
        return """
                {"process_guid": "%s", "domain": "%s", "rootfs": "preloaded:host", "instances": %d, "memory_mb": 32,
                 "disk_mb": 16, "ports": [8080], "env": %s, "action": %s, "check_definition": %s}"""
                .formatted(guid, DOMAIN, instances, env(guid, label, bind), action(marker), CHECK);
    }

    public static String deployment(String guid, String label, String marker) {
        return deployment(guid, label, marker, LOOPBACK);
    }

    /** A deployment to a new definition labelled {@code label}, one instance at a time. */
    public static String deployment(String guid, String label, String marker, String bind) {
        return """
                {"env": %s, "action": %s, "max_surge": 1, "min_healthy_time": 1, "progress_deadline": 60}"""
                .formatted(env(guid, label, bind), action(marker));
    }

    /** A deployment whose instances exit at once: it must fail its short deadline and be reverted automatically. */
    public static String brokenDeployment(String guid, String label, String marker) {
        return """
                {"env": %s, "action": {"run": {"path": "sh", "args": ["-c", "exit 3", %s]}}, "max_surge": 1,
                 "min_healthy_time": 1, "progress_deadline": 5, "auto_revert": true}"""
                .formatted(env(guid, label, LOOPBACK), Json.write(marker));
    }

    /** A task that notes its start and end in {@code runs}, sleeping {@code sleepMs} between. */
    public static String task(String guid, Path runs, int sleepMs, String callbackUrl, String marker) {
        String script = "echo \"start " + guid + " $(date +%s%3N) $$\" >> " + runs + "; sleep "
                + String.format("%.3f", sleepMs / 1000.0) + "; echo \"end " + guid + " $(date +%s%3N) $$\" >> " + runs;
        return """
                {"task_guid": "%s", "domain": "%s", "rootfs": "preloaded:host", "memory_mb": 16, "disk_mb": 16,
                 "action": {"run": {"path": "sh", "args": ["-c", %s, %s]}}%s}""".formatted(guid, DOMAIN,
                Json.write(script), Json.write(marker), callbackUrl == null ? ""
                        : ", \"completion_callback_url\": " + Json.write(callbackUrl));
    }

    private static String env(String guid, String label, String bind) {
        return "[{\"name\": \"PG\", \"value\": " + Json.write(guid) + "}, {\"name\": \"LABEL\", \"value\": "
                + Json.write(label) + "}, {\"name\": \"BIND\", \"value\": " + Json.write(bind) + "}]";
    }

    private static String action(String marker) {
        return "{\"run\": {\"path\": \"python3\", \"args\": [\"-c\", " + Json.write(SERVER) + ", " + Json.write(marker)
                + "]}}";
    }
}
