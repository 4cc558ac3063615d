package io.drover.cluster;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The properties of the local cluster's rep contexts: three process cells in three zones, or one rep of simulated
 * cells (plus, for failure scenarios, reps of one simulated cell each, which die without a word).
 */
final class CellProperties {

    private CellProperties() {
    }

    static Map<String, String> forCell(LocalClusterSettings settings, int i) {
        Map<String, String> p = new LinkedHashMap<>();
        // Several reps share this machine: each log server takes a free port (its cells' presence says which).
        p.put("drover.rep.logs.port", "0");
        if (settings.simulatedCells() > 0) {
            p.put("drover.rep.executor", "simulated");
            p.put("drover.rep.simulated-cells", i == 0 ? String.valueOf(settings.simulatedCells()) : "1");
            p.put("drover.rep.cell-id", i == 0 ? "sim" : "sim-r" + i);
            p.put("drover.rep.zones", i == 0 ? "z1,z2,z3" : "z" + (i % 3 + 1));
            p.put("drover.rep.capacity.memory-mb", "16384");
            p.put("drover.rep.capacity.disk-mb", "65536");
            p.put("drover.rep.capacity.containers", "256");
            p.put("drover.rep.admin.enabled", "false");
            // The extra reps stand for machines that can die: stopping one says nothing and leaves nothing behind.
            p.put("drover.rep.shutdown", i == 0 ? "stop" : "keep");
            return p;
        }
        String zone = "z" + (i + 1);
        p.put("drover.rep.executor", "process");
        p.put("drover.rep.cell-id", "cell-" + zone);
        p.put("drover.rep.zone", zone);
        p.put("drover.rep.address", "127.0.0.1");
        p.put("drover.rep.process.work-dir", settings.dataDir().resolve("cells").resolve("cell-" + zone).toString());
        // Disjoint host-port ranges, so the cells of one machine never hand out the same port (clusters started side by
        // side, as the parallel integration tests do, take another base).
        int base = Integer.getInteger("drover.local.host-port-base", 61000) + i * 300;
        p.put("drover.rep.process.host-port-range", base + "-" + (base + 299));
        // with --containers: each cell's instances get addresses of its own (the reps of one machine share no allocator)
        p.put("drover.rep.container.subnet", "10.254." + (i % 16 * 16) + ".0/20");
        p.put("drover.rep.capacity.memory-mb", "4096");
        p.put("drover.rep.capacity.disk-mb", "16384");
        p.put("drover.rep.capacity.containers", "64");
        p.put("drover.rep.admin.port", "0");
        p.put("drover.rep.admin.exit-after-evacuation", "false");
        // Ctrl-C on the local cluster stops every workload: nothing is left running on the developer's machine.
        p.put("drover.rep.shutdown", "stop");
        return p;
    }
}
