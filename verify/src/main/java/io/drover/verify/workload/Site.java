package io.drover.verify.workload;

import java.nio.file.Path;
import java.util.List;

/**
 * Where the cluster's workloads live, seen from the checker: the address its callback server listens on (one the
 * converger reaches), the address an instance's web server binds, where the checker reaches an instance the API lists
 * at {@code address:host_port}, and the file tasks append their lines to (a path where the tasks run) with the way to
 * read it back.
 */
public interface Site {

    String callbackHost();

    String instanceBind();

    /** {@code host:port} at which the checker reaches an instance the API lists at {@code address:hostPort}. */
    String reach(String address, int hostPort);

    /** The task file of run {@code runId}, as the tasks see it. */
    Path taskFile(String runId);

    /** The lines the run's tasks appended, wherever they ran (none when no task ran). */
    List<String> taskLines(String runId);
}
