package io.drover.rep.cell;

import io.drover.model.cell.CellIsolation;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the rep's settings into its cells: one, or N simulated ones spread over the zones, each registering how the
 * rep's executor isolates what it runs. Pure.
 */
public final class CellLayout {

    private CellLayout() {
    }

    public static List<CellSettings> cells(RepProperties p, String defaultCellId, Resources machine,
            CellIsolation isolation) {
        String base = p.cellId() == null || p.cellId().isBlank() ? defaultCellId : p.cellId();
        Resources capacity = capacity(p.capacity(), machine);
        List<CellSettings> cells = new ArrayList<>();
        if (p.simulatedCells() <= 0) {
            cells.add(cell(p, base, p.zone(), capacity, isolation));
            return cells;
        }
        for (int n = 1; n <= p.simulatedCells(); n++) {
            cells.add(cell(p, base + "-" + n, p.zones().get((n - 1) % p.zones().size()), capacity, isolation));
        }
        return cells;
    }

    /**
     * The root filesystems a cell offers: what it is configured with, except that only a container cell can run a tree
     * other than the host's ({@code preloaded:<name>}, {@code oci://}): a container executor that fell back to host
     * processes (docs/isolation.md) does not offer them, so placement finds no compatible cell instead of running the
     * instance on the host's filesystem.
     */
    static List<String> offered(List<String> configured, CellIsolation isolation) {
        if (isolation == CellIsolation.CONTAINERS || isolation == CellIsolation.SIMULATED
                || isolation == CellIsolation.UNKNOWN) {
            return configured;
        }
        return configured.stream().filter(r -> r.equals("preloaded:host")
                || !r.startsWith("preloaded:") && !r.startsWith("oci:")).toList();
    }

    static Resources capacity(RepProperties.Capacity configured, Resources machine) {
        return new Resources(configured.memoryMb() > 0 ? configured.memoryMb() : machine.memoryMb(),
                configured.diskMb() > 0 ? configured.diskMb() : machine.diskMb(),
                configured.containers() > 0 ? configured.containers() : machine.containers());
    }

    private static CellSettings cell(RepProperties p, String cellId, String zone, Resources capacity,
            CellIsolation isolation) {
        return new CellSettings(new CellRegistration(cellId, zone, p.address(), capacity,
                offered(p.rootfsProviders(), isolation),
                p.placementTags().required(), p.placementTags().optional(), isolation), p.timing(), p.batchSize());
    }
}
