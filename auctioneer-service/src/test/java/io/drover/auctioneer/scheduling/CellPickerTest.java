package io.drover.auctioneer.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The pooled pick is an optimisation: on random fleets (few capacity classes, so pools are deep) it must choose a cell
 * exactly as good as a brute-force scan of every candidate would, at every step of a round.
 */
class CellPickerTest {

    private static final List<Resources> CLASSES = List.of(new Resources(8192, 40_000, 40),
            new Resources(16_384, 80_000, 80), new Resources(4096, 0, 20));

    @Test
    void picksACellAsGoodAsAFullScanAtEveryStep() {
        for (long seed = 1; seed <= 20; seed++) {
            Random random = new Random(seed);
            Fleet fleet = new Fleet(cells(random, 150));
            Compatibility compatibility = new Compatibility(fleet);
            CellPicker picker = new CellPicker(fleet);
            Work untagged = new Work(ActualLrpKey.of("probe", 0), 1, 1, "preloaded:host", Set.of());
            assertThat(Arrays.asList(compatibility.candidates(untagged).poolsByZone)).as("zones are pooled")
                    .doesNotContainNull();
            List<Work> work = work(random, 1_500);
            work.sort(Scheduler.ORDER);
            for (Work w : work) {
                Candidates candidates = compatibility.candidates(w);
                if (candidates.error != null) {
                    continue;
                }
                int picked = picker.pick(candidates, w);
                int scanned = scan(fleet, candidates, w);
                assertThat(picked < 0).as("seed %d %s", seed, w.key()).isEqualTo(scanned < 0);
                if (picked >= 0) {
                    assertThat(fleet.zoneOf(picked)).as("seed %d %s", seed, w.key()).isIn(levelZones(fleet, candidates,
                            w, scanned));
                    assertThat(score(fleet, picked, w)).as("seed %d %s", seed, w.key())
                            .isCloseTo(score(fleet, scanned, w), offset(1e-9));
                    fleet.reserve(picked, w);
                }
            }
        }
    }

    /** The reference: every fitting candidate of the least loaded zone level, lowest score, ties to the lowest id. */
    private static int scan(Fleet fleet, Candidates candidates, Work w) {
        Spread spread = fleet.spread(w.processGuid());
        TreeSet<Integer> levels = new TreeSet<>();
        for (int zone : candidates.zones) {
            levels.add(spread.inZone(zone));
        }
        for (int level : levels) {
            int best = -1;
            for (int z = 0; z < candidates.zones.length; z++) {
                if (spread.inZone(candidates.zones[z]) != level) {
                    continue;
                }
                for (int cell : candidates.cellsByZone[z]) {
                    if (fleet.fits(cell, w) && (best < 0 || score(fleet, cell, w) < score(fleet, best, w))) {
                        best = cell;
                    }
                }
            }
            if (best >= 0) {
                return best;
            }
        }
        return -1;
    }

    private static List<Integer> levelZones(Fleet fleet, Candidates candidates, Work w, int scanned) {
        Spread spread = fleet.spread(w.processGuid());
        int level = spread.inZone(fleet.zoneOf(scanned));
        List<Integer> zones = new ArrayList<>();
        for (int zone : candidates.zones) {
            if (spread.inZone(zone) == level) {
                zones.add(zone);
            }
        }
        return zones;
    }

    private static double score(Fleet fleet, int cell, Work w) {
        int[] here = new int[fleet.size()];
        fleet.spread(w.processGuid()).writeTo(here);
        return fleet.score(cell, w, here[cell]);
    }

    private static List<CellLoad> cells(Random random, int count) {
        List<CellLoad> cells = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Resources capacity = CLASSES.get(random.nextInt(CLASSES.size()));
            Resources used = new Resources(random.nextInt(capacity.memoryMb() / 2 + 1),
                    random.nextInt(capacity.diskMb() / 2 + 1), random.nextInt(capacity.containers() / 2 + 1));
            Set<String> optional = random.nextBoolean() ? Set.of("ssd") : Set.of();
            cells.add(new CellLoad("cell-" + i, "z" + random.nextInt(3), capacity, used, Set.of("preloaded:host"),
                    Set.of(), optional, random.nextInt(4) == 0 ? Map.of("lrp-" + random.nextInt(40), 1) : Map.of(),
                    random.nextInt(3)));
        }
        return cells;
    }

    private static List<Work> work(Random random, int count) {
        List<Work> work = new ArrayList<>();
        for (int lrp = 0; work.size() < count; lrp++) {
            int memory = 128 * (1 + random.nextInt(8));
            Set<String> tags = random.nextInt(5) == 0 ? Set.of("ssd") : Set.of();
            for (int i = 0, n = 1 + random.nextInt(12); i < n; i++) {
                work.add(new Work(ActualLrpKey.of("lrp-" + lrp, i), memory, 64 * random.nextInt(8), "preloaded:host",
                        tags));
            }
        }
        return work;
    }
}
