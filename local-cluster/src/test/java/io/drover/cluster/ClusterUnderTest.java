package io.drover.cluster;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A local cluster a test class started, once every one of its cells has registered, with its API and invariants. Its
 * process cells make their cgroups under this JVM's own root ({@link TestCgroups}).
 */
record ClusterUnderTest(LocalCluster cluster, Api api, ClusterInvariants invariants) {

    static ClusterUnderTest start(LocalClusterSettings given) {
        Map<String, String> properties = new HashMap<>(given.extraProperties());
        properties.putIfAbsent("drover.rep.process.cgroup-root", TestCgroups.ROOT);
        LocalClusterSettings settings = new LocalClusterSettings(given.dataDir(), given.fresh(), given.receptorPort(),
                given.cells(), given.simulatedCells(), given.username(), given.password(), properties);
        LocalCluster cluster = LocalCluster.start(settings);
        Api api = new Api(cluster);
        int cells = settings.cells() + settings.simulatedCells();
        // Generous: the first class of a fork starts its cluster in a cold JVM, beside two other forks doing the same;
        // on a loaded machine (a benchmark beside the build, half the CPU stolen) that took over 30 s.
        await().atMost(Duration.ofSeconds(120)).until(() -> api.cells().size() == cells);
        return new ClusterUnderTest(cluster, api, new ClusterInvariants(cluster));
    }
}
