package io.drover.verify.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The local cluster's workloads run on this machine: everything on the loopback interface, the task file in the run's
 * data directory.
 */
public record LocalSite(Path dataDir) implements Site {

    @Override
    public String callbackHost() {
        return Bodies.LOOPBACK;
    }

    @Override
    public String instanceBind() {
        return Bodies.LOOPBACK;
    }

    @Override
    public String reach(String address, int hostPort) {
        return address + ":" + hostPort;
    }

    @Override
    public Path taskFile(String runId) {
        return dataDir.resolve(runId + "-tasks.log");
    }

    @Override
    public List<String> taskLines(String runId) {
        Path file = taskFile(runId);
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
