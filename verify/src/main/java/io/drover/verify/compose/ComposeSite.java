package io.drover.verify.compose;

import io.drover.verify.workload.Site;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The compose cluster's workloads run in the reps' containers: an instance listens on every interface of its rep's
 * container, whose port range is published on this machine as is, so the checker reaches it at
 * {@code 127.0.0.1:<host_port>}; completion callbacks come from the converger's container to the compose network's
 * gateway, this machine's address on that network. A task appends to a file in {@code /tmp} of the rep's container it
 * runs in: the container keeps its filesystem when it is killed or stopped and started again, so at the end the
 * checker reads each rep's file ({@code docker exec cat}) and takes their lines together. A bind-mounted directory
 * would do too, but needs a directory of this machine made, named in the compose files and removed again.
 */
final class ComposeSite implements Site {

    private static final String EVERY_INTERFACE = "0.0.0.0";

    private final Docker docker;
    private final Project project;
    private final List<String> reps;
    private final String gateway;

    ComposeSite(Docker docker, Project project, List<String> reps, String gateway) {
        this.docker = docker;
        this.project = project;
        this.reps = List.copyOf(reps);
        this.gateway = gateway;
    }

    @Override
    public String callbackHost() {
        return gateway;
    }

    @Override
    public String instanceBind() {
        return EVERY_INTERFACE;
    }

    @Override
    public String reach(String address, int hostPort) {
        return "127.0.0.1:" + hostPort;
    }

    @Override
    public Path taskFile(String runId) {
        return Path.of("/tmp", "drover-verify-" + runId + "-tasks.log");
    }

    @Override
    public List<String> taskLines(String runId) {
        List<String> lines = new ArrayList<>();
        for (String rep : reps) {
            docker.attempt("exec", project.container(rep), "cat", taskFile(runId).toString())
                    .ifPresent(out -> lines.addAll(out.lines().toList()));
        }
        return lines;
    }
}
