package io.drover.rep.intake;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.rep.records.RecordView;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PlacementChecksTest {

    private static final UUID EPOCH = UUID.randomUUID();
    private static final ActualLrpKey KEY = ActualLrpKey.of("app", 0);
    private static final LrpsPlaced.Placement PLACEMENT = new LrpsPlaced.Placement("app", 0, EPOCH, 3);

    static Stream<Arguments> records() {
        return Stream.of(
                Arguments.of("unclaimed and placed here", record(ActualLrpState.UNCLAIMED, "cell-a", EPOCH), true),
                Arguments.of("record missing", null, false),
                Arguments.of("already claimed (redelivery)", record(ActualLrpState.CLAIMED, null, EPOCH), false),
                Arguments.of("placed on another cell since", record(ActualLrpState.UNCLAIMED, "cell-b", EPOCH), false),
                Arguments.of("placement withdrawn", record(ActualLrpState.UNCLAIMED, null, EPOCH), false),
                Arguments.of("record re-created (other epoch)",
                        record(ActualLrpState.UNCLAIMED, "cell-a", UUID.randomUUID()), false));
    }

    @ParameterizedTest(name = "{0} → current: {2}")
    @MethodSource("records")
    void placementIsCurrentOnlyWhileItsRecordWaitsForThisCell(String name, RecordView record, boolean current) {
        assertThat(PlacementChecks.isCurrent(PLACEMENT, record, "cell-a")).isEqualTo(current);
    }

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

    private static RecordView record(ActualLrpState state, String placedOn, UUID epoch) {
        boolean owned = state == ActualLrpState.CLAIMED;
        return new RecordView(KEY, state, owned ? "g" : null, owned ? "cell-a" : null, placedOn, epoch);
    }
}
