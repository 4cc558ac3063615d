package io.drover.cli;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Runs the commands people run most against a canned receptor on a local socket, so that a JVM started with
 * {@code -XX:ArchiveClassesAtExit} writes an archive of every class they load (JDK 17's application class-data
 * sharing): the build makes it (and {@code ./drover} when the jar or the JDK changed), and each command then maps
 * those classes in instead of loading them. Not a command: {@code java -cp drover-cli-exec.jar
 * io.drover.cli.StartupTraining [STAMP]} writes this JVM's {@code java.home} to STAMP, the JDK the archive is for.
 */
public final class StartupTraining {

    private static final String CELL = "{\"cell_id\":\"cell-z1\",\"zone\":\"z1\",\"address\":\"127.0.0.1\","
            + "\"state\":\"ACTIVE\",\"capacity\":{\"memory_mb\":4096,\"disk_mb\":8192,\"containers\":64},"
            + "\"available\":{\"memory_mb\":4000,\"disk_mb\":8000,\"containers\":60},\"rootfs_providers\":"
            + "[\"preloaded\"],\"placement_tags\":[],\"heartbeat_at\":\"2025-01-01T00:00:00Z\"}";
    private static final String ACTUAL = "{\"process_guid\":\"web\",\"index\":0,\"domain\":\"default\","
            + "\"instance_guid\":\"i\",\"cell_id\":\"cell-z1\",\"address\":\"127.0.0.1\","
            + "\"ports\":[{\"container_port\":8080,\"host_port\":61000}],\"state\":\"RUNNING\",\"crash_count\":1,\"crash_reason\":\"exited\","
            + "\"since\":1700000000000,\"evacuating\":false,\"modification_tag\":{\"epoch\":\"e\",\"index\":1}}";
    private static final String DESIRED = "{\"process_guid\":\"web\",\"domain\":\"default\",\"rootfs\":"
            + "\"preloaded:host\",\"instances\":1,\"memory_mb\":128,\"disk_mb\":256,\"ports\":[8080],\"action\":"
            + "{\"run\":{\"path\":\"sh\",\"args\":[\"-c\",\"echo hi\"]}}}";
    private static final String TASK = "{\"task_guid\":\"job\",\"domain\":\"default\",\"state\":\"COMPLETED\","
            + "\"cell_id\":\"cell-z1\",\"failed\":false,\"result\":\"42\",\"updated_at\":\"2025-01-01T00:00:00Z\"}";
    private static final String DEPLOYMENT = "{\"id\":\"d\",\"process_guid\":\"web\",\"state\":\"SUCCESSFUL\","
            + "\"from_version\":1,\"to_version\":2,\"counts\":{\"desired\":1,\"updated\":1,\"healthy\":1,"
            + "\"unhealthy\":0},\"created_by\":\"drover\",\"created_at\":\"2025-01-01T00:00:00Z\"}";
    private static final Map<String, String> ANSWERS = Map.of(
            "/v1/cells", "[" + CELL + "]",
            "/v1/actual_lrps", "[" + ACTUAL + "]",
            "/v1/actual_lrps/web", "[" + ACTUAL + "]",
            "/v1/desired_lrps", "[" + DESIRED + "]",
            "/v1/desired_lrps/web", DESIRED,
            "/v1/tasks", "[" + TASK + "]",
            "/v1/tasks/job", TASK,
            "/v1/desired_lrps/web/deployments", "[" + DEPLOYMENT + "]",
            "/v1/domains", "[\"default\"]");
    private static final List<List<String>> RUNS = List.of(List.of("cells"), List.of("status", "web"),
            List.of("list"), List.of("visualize"), List.of("tasks"), List.of("task", "get", "job"),
            List.of("rollout", "status", "web"), List.of("domains"), List.of("-o", "json", "cells"),
            List.of("status", "nothing"), List.of("--help"));

    private StartupTraining() {
    }

    public static void main(String[] args) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread answering = new Thread(() -> answer(server), "training-receptor");
            answering.setDaemon(true);
            answering.start();
            Map<String, String> env = Map.of("DROVER_URL", "http://127.0.0.1:" + server.getLocalPort(),
                    "DROVER_PASSWORD", "training");
            PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
            for (List<String> run : RUNS) {
                Drover.run(run.toArray(String[]::new), env, Path.of(""), sink, sink, false);
            }
        }
        if (args.length > 0) {
            Files.writeString(Path.of(args[0]), System.getProperty("java.home") + "\n");
        }
    }

    private static void answer(ServerSocket server) {
        while (!server.isClosed()) {
            try (Socket socket = server.accept()) {
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                        StandardCharsets.US_ASCII));
                String path = in.readLine().split(" ")[1];
                for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                    // the headers: nothing to learn from them
                }
                String body = ANSWERS.get(path.replaceFirst("\\?.*", ""));
                String status = body == null ? "404 Not Found" : "200 OK";
                byte[] bytes = (body == null ? "{\"name\":\"DesiredLRPNotFound\",\"message\":\"not found\"}" : body)
                        .getBytes(StandardCharsets.UTF_8);
                OutputStream out = socket.getOutputStream();
                out.write(("HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\nContent-Length: "
                        + bytes.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(bytes);
            } catch (IOException | RuntimeException e) {
                // the server closed, or a request this canned receptor does not follow: the run goes on
            }
        }
    }
}
