package io.drover.rep.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.model.cell.CellIsolation;
import io.drover.model.cell.Resources;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class CellLayoutTest {

    private static final Resources MACHINE = new Resources(16_000, 100_000, 256);

    @Test
    void oneCellTakesItsIdZoneAndTheMachineForUnsetCapacity() {
        RepProperties p = properties("rep-7", 0, List.of(), new RepProperties.Capacity(2048, 0, 0));

        List<CellSettings> cells = CellLayout.cells(p, "host", MACHINE, CellIsolation.SAMPLING);

        assertThat(cells).singleElement().satisfies(c -> {
            assertThat(c.cellId()).isEqualTo("rep-7");
            assertThat(c.registration().zone()).isEqualTo("z1");
            assertThat(c.capacity()).isEqualTo(new Resources(2048, 100_000, 256));
            assertThat(c.registration().rootfsProviders()).containsExactly("preloaded:host");
            assertThat(c.registration().isolation()).isEqualTo(CellIsolation.SAMPLING);
        });
    }

    @Test
    void onlyAContainerCellOffersRootFilesystemsOtherThanTheHosts() {
        List<String> configured = List.of("preloaded:host", "preloaded:bookworm", "oci:///srv/images/app",
                "docker:///busybox");
        RepProperties p = new RepProperties("c", "z1", List.of(), "127.0.0.1", capacity(), configured,
                new RepProperties.PlacementTags(List.of(), null), "container", 0, timing(), admin(),
                RepProperties.ShutdownMode.EVACUATE, 4, 500);

        assertThat(CellLayout.cells(p, "host", MACHINE, CellIsolation.CONTAINERS).get(0).registration()
                .rootfsProviders()).containsExactlyElementsOf(configured);
        assertThat(CellLayout.cells(p, "host", MACHINE, CellIsolation.CGROUPS_V1).get(0).registration()
                .rootfsProviders()).as("a container executor fallen back to host processes")
                .containsExactly("preloaded:host", "docker:///busybox");
    }

    @Test
    void missingCellIdFallsBackToTheHostName() {
        assertThat(CellLayout.cells(properties(null, 0, List.of(), capacity()), "host-1", MACHINE,
                CellIsolation.SAMPLING))
                .extracting(CellSettings::cellId).containsExactly("host-1");
    }

    @Test
    void simulatedCellsAreNumberedAndSpreadRoundRobinOverTheZones() {
        RepProperties p = properties("sim", 5, List.of("z1", "z2", "z3"), capacity());

        List<CellSettings> cells = CellLayout.cells(p, "host", MACHINE, CellIsolation.SAMPLING);

        assertThat(cells).extracting(CellSettings::cellId).containsExactly("sim-1", "sim-2", "sim-3", "sim-4", "sim-5");
        assertThat(cells).extracting(c -> c.registration().zone()).containsExactly("z1", "z2", "z3", "z1", "z2");
    }

    @Test
    void simulatedCellsNeedTheSimulatedExecutor() {
        assertThatThrownBy(() -> new RepProperties("x", "z1", null, "127.0.0.1", capacity(), List.of("preloaded:host"),
                new RepProperties.PlacementTags(null, null), "process", 3, timing(), admin(),
                RepProperties.ShutdownMode.EVACUATE, 4, 500)).hasMessageContaining("simulated");
    }

    private static RepProperties properties(String cellId, int simulated, List<String> zones,
            RepProperties.Capacity capacity) {
        return new RepProperties(cellId, "z1", zones, "127.0.0.1", capacity, List.of("preloaded:host"),
                new RepProperties.PlacementTags(List.of("ssd"), null), simulated > 0 ? "simulated" : "process",
                simulated, timing(), admin(), RepProperties.ShutdownMode.EVACUATE, 4, 500);
    }

    private static RepProperties.Capacity capacity() {
        return new RepProperties.Capacity(0, 0, 0);
    }

    private static RepProperties.Timing timing() {
        Duration s = Duration.ofSeconds(1);
        return new RepProperties.Timing(s, s, s, s, s, s, s);
    }

    private static RepProperties.Admin admin() {
        return new RepProperties.Admin(false, 0, false);
    }
}
