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
 * Completes with the first failure's reason, or empty when healthy. Checks name container ports and are made on the
 * loopback address to the host port they map to (there is no network namespace: the process listens on the host
 * port itself). The monitor runs as a process of its own, so no thread waits for it.
 */
final class HealthProbe {

    private static final int DEFAULT_TIMEOUT_MS = 1000;

    private final ProcessLauncher launcher;

    private final Duration monitorTimeout;

    private final BiFunction<ProcessContainer, RunAction, Map<String, String>> environment;

    HealthProbe(ProcessLauncher launcher, Duration monitorTimeout,
            BiFunction<ProcessContainer, RunAction, Map<String, String>> environment) {
        this.launcher = launcher;
        this.monitorTimeout = monitorTimeout;
        this.environment = environment;
    }

    static boolean hasChecks(DesiredLrpDefinition definition) {
        return definition.monitor() != null || !checks(definition).isEmpty();
    }

    CompletableFuture<Optional<String>> probe(ProcessContainer container) {
        DesiredLrpDefinition definition = container.spec().definition();
        NetInfo netInfo = container.instance().netInfo();
        for (Check check : checks(definition)) {
            Optional<String> failure = check.tcpCheck() != null ? tcp(check.tcpCheck(), netInfo)
                    : check.httpCheck() != null ? http(check.httpCheck(), netInfo) : Optional.empty();
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

    private static Optional<String> tcp(CheckDefinition.TcpCheck check, NetInfo netInfo) {
        Optional<Integer> hostPort = hostPort(netInfo, check.port());
        if (hostPort.isEmpty()) {
            return Optional.of("tcp check: port " + check.port() + " is not a container port");
        }
        int timeout = check.connectTimeoutMs() != null ? check.connectTimeoutMs() : DEFAULT_TIMEOUT_MS;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), hostPort.get()), timeout);
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("tcp check on port " + check.port() + " failed: " + e.getMessage());
        }
    }

    private static Optional<String> http(CheckDefinition.HttpCheck check, NetInfo netInfo) {
        Optional<Integer> hostPort = hostPort(netInfo, check.port());
        if (hostPort.isEmpty()) {
            return Optional.of("http check: port " + check.port() + " is not a container port");
        }
        int timeout = check.requestTimeoutMs() != null ? check.requestTimeoutMs() : DEFAULT_TIMEOUT_MS;
        String path = check.path() == null || check.path().isEmpty() ? "/" : check.path();
        String where = "http check on port " + check.port() + " path " + path;
        HttpURLConnection connection = null;
        try {
            URI uri = URI.create("http://127.0.0.1:" + hostPort.get() + (path.startsWith("/") ? path : "/" + path));
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
        try {
            process = launcher.launch(monitor, container.spec().definition().cpuWeight(),
                    environment.apply(container, monitor), container.instance().dir(), container.instance().cgroup());
        } catch (IOException e) {
            return CompletableFuture.completedFuture(Optional.of("monitor failed to start: " + e.getMessage()));
        }
        ProcessTree tree = container.tree();
        Optional<ProcessIdentity> identity = ProcTable.stat(process.pid()).map(ProcessIdentity::of);
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

    private static Optional<Integer> hostPort(NetInfo netInfo, int containerPort) {
        return netInfo.ports().stream().filter(p -> p.containerPort() == containerPort).map(PortMapping::hostPort)
                .findFirst();
    }
}
