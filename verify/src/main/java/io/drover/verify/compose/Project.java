package io.drover.verify.compose;

import io.drover.model.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One compose project's containers, found by the labels compose gives them, as {@code docker inspect} shows them. A
 * container keeps its id when it is killed, paused, stopped or started again, so ids are looked up once. Every service
 * of the compose file has a health check.
 */
final class Project {

    /** The network a container is on and that network's gateway (this machine's address on it). */
    record Network(String name, String gateway) {
    }

    private final Docker docker;
    private final String name;
    private final Map<String, String> ids = new ConcurrentHashMap<>();

    Project(Docker docker, String name) {
        this.docker = docker;
        this.name = name;
    }

    String name() {
        return name;
    }

    /** The ids of the project's containers, running or not. */
    List<String> containers() {
        return docker.run("ps", "-aq", "--filter", "label=com.docker.compose.project=" + name).lines()
                .filter(l -> !l.isBlank()).toList();
    }

    /** The id of the one container of {@code service}. */
    String container(String service) {
        return ids.computeIfAbsent(service, s -> {
            List<String> found = docker.run("ps", "-aq", "--filter", "label=com.docker.compose.project=" + name,
                    "--filter", "label=com.docker.compose.service=" + s).lines().filter(l -> !l.isBlank()).toList();
            if (found.size() != 1) {
                throw new IllegalStateException("project " + name + ": expected one container of " + s + ", found "
                        + found.size());
            }
            return found.get(0);
        });
    }

    /** The environment {@code service}'s container was created with. */
    Map<String, String> env(String service) {
        Map<String, String> env = new HashMap<>();
        Json.tree(docker.run("inspect", "-f", "{{json .Config.Env}}", container(service))).forEach(v -> {
            String pair = v.asString();
            int eq = pair.indexOf('=');
            if (eq > 0) {
                env.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        });
        return env;
    }

    /** The host port {@code containerPort} of {@code service} is published on, if it is. */
    Optional<Integer> publishedPort(String service, int containerPort) {
        return docker.attempt("port", container(service), containerPort + "/tcp")
                .flatMap(out -> out.lines().map(String::strip).filter(l -> l.matches(".*:\\d+"))
                        .map(l -> Integer.parseInt(l.substring(l.lastIndexOf(':') + 1))).findFirst());
    }

    /** The compose network {@code service} is on. */
    Network network(String service) {
        String out = docker.run("inspect", "-f",
                "{{range $k, $v := .NetworkSettings.Networks}}{{$k}} {{$v.Gateway}}{{println}}{{end}}",
                container(service));
        return out.lines().map(l -> l.strip().split(" ")).filter(f -> f.length == 2).findFirst()
                .map(f -> new Network(f[0], f[1]))
                .orElseThrow(() -> new IllegalStateException(service + " is on no network: " + out));
    }

    /**
     * Starts {@code service}'s container and returns once its health check passes: a restarted service is back when
     * it serves (a JVM in a container takes half a minute on a busy machine), not when its container runs.
     */
    void startAndAwaitHealthy(String service, Duration timeout) {
        docker.run("start", container(service));
        long deadline = System.nanoTime() + timeout.toNanos();
        String status = "";
        while (System.nanoTime() < deadline) {
            status = docker.run("inspect", "-f", "{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}"
                    + "{{end}}", container(service)).strip();
            if (status.equals("healthy")) {
                return;
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        throw new IllegalStateException(service + " not healthy " + timeout.toSeconds() + " s after its start: "
                + status);
    }

    /**
     * The threads of {@code service}'s JVM as {@code jcmd Thread.print} shows them, from this machine (the JVM is the
     * child of the container's init); empty where that cannot be done (no {@code jcmd} here, Docker in a VM).
     */
    Optional<String> threadDump(String service) {
        try {
            long init = Long.parseLong(docker.run("inspect", "-f", "{{.State.Pid}}", container(service)).strip());
            Optional<ProcessHandle> jvm = ProcessHandle.of(init).stream().flatMap(ProcessHandle::children)
                    .filter(p -> p.info().command().orElse("").endsWith("java")).findFirst();
            if (jvm.isEmpty()) {
                return Optional.empty();
            }
            Process jcmd = new ProcessBuilder("jcmd", String.valueOf(jvm.get().pid()), "Thread.print")
                    .redirectErrorStream(true).start();
            String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return jcmd.waitFor() == 0 ? Optional.of(out) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** The container's log, standard output and error. */
    String logs(String service) {
        return docker.run("logs", container(service));
    }
}
