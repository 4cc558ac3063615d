package io.drover.auctioneer.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.cell.Resources;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A spread built in one pass over the cells' counts is the spread built when first asked for. */
class FleetTest {

    private static List<CellLoad> cells() {
        Resources capacity = new Resources(1000, 2000, 10);
        return List.of(
                new CellLoad("a", "z1", capacity, null, Set.of(Fixtures.ROOTFS), Set.of(), Set.of(),
                        Map.of("web", 2, "api", 1), 0),
                new CellLoad("b", "z2", capacity, null, Set.of(Fixtures.ROOTFS), Set.of(), Set.of(),
                        Map.of("web", 1), 0),
                new CellLoad("c", "z2", capacity, null, Set.of(Fixtures.ROOTFS), Set.of(), Set.of(),
                        Map.of("api", 3), 0));
    }

    @Test
    void aSpreadBuiltInOnePassEqualsOneBuiltWhenAskedFor() {
        Fleet onePass = new Fleet(cells());
        // 3 guids x 3 cells = 9 look-ups against 4 counts held: one pass is cheaper, so spreadsOf builds them
        onePass.spreadsOf(Set.of("web", "api", "new"));
        Fleet asked = new Fleet(cells());

        for (String guid : List.of("web", "api", "new")) {
            int[] built = new int[3];
            int[] lazy = new int[3];
            onePass.spread(guid).writeTo(built);
            asked.spread(guid).writeTo(lazy);
            assertThat(built).as(guid + " per cell").containsExactly(lazy);
            for (int zone = 0; zone < 2; zone++) {
                assertThat(onePass.spread(guid).inZone(zone)).as(guid + " in zone " + zone)
                        .isEqualTo(asked.spread(guid).inZone(zone));
            }
        }
        int[] web = new int[3];
        asked.spread("web").writeTo(web);
        assertThat(web).containsExactly(2, 1, 0);
        assertThat(asked.spread("api").inZone(asked.zoneOf(2))).isEqualTo(3);
    }

    @Test
    void aReservationCountsInTheSpreadWhicheverWayItWasBuilt() {
        for (boolean first : new boolean[] {true, false}) {
            Fleet fleet = new Fleet(cells());
            if (first) {
                fleet.spreadsOf(Set.of("web", "api", "new"));
            }
            fleet.reserve(2, new Work(io.drover.model.lrp.ActualLrpKey.of("web", 3), 10, 10, Fixtures.ROOTFS,
                    Set.of()));
            int[] web = new int[3];
            fleet.spread("web").writeTo(web);
            assertThat(web).as(first ? "built in one pass" : "built when asked for").containsExactly(2, 1, 1);
        }
    }
}
