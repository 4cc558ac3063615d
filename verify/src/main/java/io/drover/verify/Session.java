package io.drover.verify;

import io.drover.verify.fault.ClusterControl;
import io.drover.verify.fault.Drains;
import java.nio.file.Path;

/**
 * A started cluster the runs share: where its receptor and its broker are, the receptor's password, how to break it,
 * the marker of this session's workload processes, where the data and the results go, and what kind of cluster it is
 * ({@code mode}).
 */
public record Session(String receptorUrl, String password, String kafkaBootstrapServers, ClusterControl control,
        Drains drains, String marker, Path dataDir, Path results, String mode) {
}
