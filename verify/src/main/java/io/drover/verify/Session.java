package io.drover.verify;

import io.drover.verify.fault.ClusterControl;
import io.drover.verify.fault.Drains;
import io.drover.verify.history.Entry;
import io.drover.verify.workload.Site;
import java.nio.file.Path;

/**
 * A started cluster the runs share: where its receptor and its broker are (null: the broker is not reachable, no topic
 * reader), the receptor's user and password, how to break it, where its workloads live, the marker of this session's
 * workload processes, where the results go, what kind of cluster it is ({@code mode}) and the clocks it runs with (the
 * checks' allowances; the convergence deadline is the run's).
 */
public record Session(String receptorUrl, String user, String password, String kafkaBootstrapServers,
        ClusterControl control, Drains drains, Site site, String marker, Path results, String mode,
        Entry.Timings timings) {
}
