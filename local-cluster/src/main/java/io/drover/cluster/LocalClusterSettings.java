package io.drover.cluster;

import java.nio.file.Path;
import java.util.Map;

/**
 * How to run the local cluster.
 *
 * @param dataDir where PostgreSQL, Kafka and the cells keep their data
 * @param fresh delete {@code dataDir} first
 * @param receptorPort the receptor's port when free (0 = any free port)
 * @param cells how many process-executor cells (zones z1, z2, z3, ...), when {@code simulatedCells} is 0
 * @param simulatedCells if positive: one rep hosting this many simulated cells instead of process cells
 * @param username the receptor's user
 * @param password the receptor's password
 * @param extraProperties properties given to every service, last (tests shorten intervals with these)
 * @param routerPort the router's port when free (0 = any free port)
 */
public record LocalClusterSettings(Path dataDir, boolean fresh, int receptorPort, int cells, int simulatedCells,
        String username, String password, Map<String, String> extraProperties, int routerPort) {

    public LocalClusterSettings {
        extraProperties = Map.copyOf(extraProperties);
    }

    /** Settings with the router on any free port (tests, the benchmark). */
    public LocalClusterSettings(Path dataDir, boolean fresh, int receptorPort, int cells, int simulatedCells,
            String username, String password, Map<String, String> extraProperties) {
        this(dataDir, fresh, receptorPort, cells, simulatedCells, username, password, extraProperties, 0);
    }

    /** Process cells when {@code simulatedCells} is 0, else one rep context for all simulated cells. */
    int repContexts() {
        return simulatedCells > 0 ? 1 : cells;
    }
}
