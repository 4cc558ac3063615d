package io.drover.rep.executor.process;

import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.CheckDefinition.Check;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.NetInfo.PortMapping;
import io.drover.model.lrp.RunAction;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/**
 * One round of a container's health checks (SPEC 8.3): every tcp/http check in order, then the monitor action.
 * Completes with the first failure's reason, or empty when healthy. Checks name container ports and connect where the
 * sandbox says: on the host, the loopback address and the host port they map to (the process listens on the host
 * port itself); in a container, its own address and the container port. The monitor runs as a process of its own
 * (in the container, beside the workload), so no thread waits for it.
 */
final class HealthProbe {

    private static final int DEFAULT_TIMEOUT_MS = 1000;

    private final Sandbox sandbox;

    private final Duration monitorTimeout;

    private final BiFunction<ProcessContainer, RunAction, Map<String, String>> environment;

    HealthProbe(Sandbox sandbox, Duration monitorTimeout,
            BiFunction<ProcessContainer, RunAction, Map<String, String>> environment) {
        this.sandbox = sandbox;
        this.monitorTimeout = monitorTimeout;
        this.environment = environment;
    }

    static boolean hasChecks(DesiredLrpDefinition definition) {
        return definition.monitor() != null || !checks(definition).isEmpty();
    }

    CompletableFuture<Optional<String>> probe(ProcessContainer container) {
        DesiredLrpDefinition definition = container.spec().definition();
        SandboxedInstance instance = container.instance().sandboxed();
        for (Check check : checks(definition)) {
            Optional<String> failure = check.tcpCheck() != null ? tcp(check.tcpCheck(), instance)
                    : check.httpCheck() != null ? http(check.httpCheck(), instance) : Optional.empty();
            if (failure.isPresent()) {
                return CompletableFuture.completedFuture(failure);
            }
        }
        return definition.monitor() == null ? CompletableFuture.completedFuture(Optional.empty())
                : monitor(container, definition.monitor());
    }

    private static List<Check> checks(DesiredLrpDefinition definition) {
        CheckDefinition checks = definition.checkDefinition();
        return checks == null ? List.of() : checks.checks();
    }

    private Optional<String> tcp(CheckDefinition.TcpCheck check, SandboxedInstance instance) {
        Optional<InetSocketAddress> target = target(instance, check.port());
        if (target.isEmpty()) {
            return Optional.of("tcp check: port " + check.port() + " is not a container port");
        }
        int timeout = check.connectTimeoutMs() != null ? check.connectTimeoutMs() : DEFAULT_TIMEOUT_MS;
        try (Socket socket = new Socket()) {
            socket.connect(target.get(), timeout);
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("tcp check on port " + check.port() + " failed: " + e.getMessage());
        }
    }

    private Optional<String> http(CheckDefinition.HttpCheck check, SandboxedInstance instance) {
        Optional<InetSocketAddress> target = target(instance, check.port());
        if (target.isEmpty()) {
            return Optional.of("http check: port " + check.port() + " is not a container port");
        }
        int timeout = check.requestTimeoutMs() != null ? check.requestTimeoutMs() : DEFAULT_TIMEOUT_MS;
        String path = check.path() == null || check.path().isEmpty() ? "/" : check.path();
        String where = "http check on port " + check.port() + " path " + path;
        HttpURLConnection connection = null;
        try {
            URI uri = URI.create("http://" + target.get().getAddress().getHostAddress() + ":" + target.get().getPort()
                    + (path.startsWith("/") ? path : "/" + path));
            connection = (HttpURLConnection) uri.toURL().openConnection();
            connection.setConnectTimeout(timeout);
            connection.setReadTimeout(timeout);
            connection.setInstanceFollowRedirects(false);
            int status = connection.getResponseCode();
            return status / 100 == 2 ? Optional.empty() : Optional.of(where + " answered " + status);
        } catch (IOException | IllegalArgumentException e) {
            return Optional.of(where + " failed: " + e.getMessage());
        } finally {
            if (connection != null) {
                connection.disconnect();
            }
        }
    }

    private CompletableFuture<Optional<String>> monitor(ProcessContainer container, RunAction monitor) {
        Process process;
        long leaderPid;
        try {
            Sandbox.Launched launched = sandbox.launch(container.instance().sandboxed(), monitor,
                    environment.apply(container, monitor), Sandbox.Role.MONITOR);
            process = launched.process();
            leaderPid = launched.leaderPid();
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.completedFuture(Optional.of("monitor failed to start: " + e.getMessage()));
        }
        ProcessTree tree = container.tree();
        Optional<ProcessIdentity> identity = ProcTable.stat(leaderPid).map(ProcessIdentity::of);
        identity.ifPresent(id -> tree.monitorRunning(id, true));
        return process.onExit().orTimeout(monitorTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((exited, error) -> identity.ifPresent(id -> tree.monitorRunning(id, false)))
                .handle((exited, timeout) -> {
                    if (timeout != null) {
                        process.descendants().forEach(ProcessHandle::destroyForcibly);
                        process.destroyForcibly();
                        return Optional.of("monitor timed out after " + monitorTimeout.toSeconds() + " s");
                    }
                    int status = exited.exitValue();
                    return status == 0 ? Optional.empty()
                            : Optional.of("monitor " + ExitStatus.describe(status).replace("exited", "failed"));
                });
    }

    private Optional<InetSocketAddress> target(SandboxedInstance instance, int containerPort) {
        return instance.netInfo().ports().stream().filter(p -> p.containerPort() == containerPort).findFirst()
                .map(p -> sandbox.checkAddress(instance, p));
    }
}
