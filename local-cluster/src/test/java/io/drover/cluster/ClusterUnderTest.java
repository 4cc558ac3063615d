package io.drover.cluster;

import static org.awaitility.Awaitility.await;

import java.time.Duration;

/** A local cluster a test class started, once every one of its cells has registered, with its API and invariants. */
record ClusterUnderTest(LocalCluster cluster, Api api, ClusterInvariants invariants) {

    static ClusterUnderTest start(LocalClusterSettings settings) {
        LocalCluster cluster = LocalCluster.start(settings);
        Api api = new Api(cluster);
        int cells = settings.cells() + settings.simulatedCells();
        await().atMost(Duration.ofSeconds(30)).until(() -> api.cells().size() == cells);
        return new ClusterUnderTest(cluster, api, new ClusterInvariants(cluster));
    }
}
