package io.drover.model.cell;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A cell's state as operators see it: the operator's drain order first, what its rep reports second (SPEC 18). */
class CellTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    @ParameterizedTest(name = "ordered={0}, rep says {1} -> {2}, schedulable={3}")
    @CsvSource({
            // no order: the rep's own word, and a DRAINED one that has not heard of the undrain yet takes work
            "false, ACTIVE,     ACTIVE,     true",
            "false, EVACUATING, EVACUATING, false",
            "false, DRAINED,    ACTIVE,     true",
            // ordered: draining until its rep says it is done, whatever it said before it heard of the order
            "true,  ACTIVE,     EVACUATING, false",
            "true,  EVACUATING, EVACUATING, false",
            "true,  DRAINED,    DRAINED,    false" })
    void theOperatorsOrderComesFirstAndTheRepsProgressSecond(boolean ordered, CellState reported, CellState state,
            boolean schedulable) {
        Cell cell = cell(reported, ordered ? new DrainOrder(NOW, NOW.plusSeconds(600), "ops") : null);

        assertThat(cell.state()).isEqualTo(state);
        assertThat(cell.isSchedulable(NOW)).isEqualTo(schedulable);
    }

    private static Cell cell(CellState reported, DrainOrder order) {
        return new Cell(new CellRegistration("cell-1", "z1", "10.0.0.1", new Resources(1024, 1024, 10), List.of(),
                List.of(), List.of()), reported, order, NOW, NOW.plusSeconds(15), 0);
    }
}
