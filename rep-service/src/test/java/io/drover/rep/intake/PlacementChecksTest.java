package io.drover.rep.intake;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlacementChecksTest {

    @Test
    void admitsWhatFitsInOrderAndNamesWhatIsMissingForTheRest() {
        Map<ActualLrpKey, Resources> candidates = new LinkedHashMap<>();
        candidates.put(ActualLrpKey.of("big", 0), new Resources(800, 10, 1));
        candidates.put(ActualLrpKey.of("huge", 0), new Resources(4000, 5000, 1));
        candidates.put(ActualLrpKey.of("small", 0), new Resources(100, 10, 1));
        candidates.put(ActualLrpKey.of("one-too-many", 0), new Resources(10, 10, 1));

        PlacementChecks.Admission admission = PlacementChecks.admit(candidates, new Resources(1000, 1000, 2));

        assertThat(admission.accepted()).containsExactly(ActualLrpKey.of("big", 0), ActualLrpKey.of("small", 0));
        assertThat(admission.rejected()).containsEntry(ActualLrpKey.of("huge", 0), "insufficient resources: memory, disk")
                .containsEntry(ActualLrpKey.of("one-too-many", 0), "insufficient resources: containers");
    }
}
