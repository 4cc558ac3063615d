package io.drover.model.read;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PlannerStatisticsTest {

    @ParameterizedTest(name = "believed {0}, holds {1}: analyze {2}")
    @CsvSource(textBlock = """
            # never analyzed: the planner estimates from the size on disk
            -1,       100000, false
            # analyzed while empty, then a burst
            0,        100000, true
            0,        1001,   true
            # small tables are fast whatever is believed
            0,        1000,   false
            0,        10,     false
            # grown past twice the belief (and by more than a small table)
            10000,    25000,  true
            10000,    21000,  false
            # about right, or shrunk: autovacuum's own analyze is soon enough
            100000,   100000, false
            100000,   150000, false
            100000,   0,      false
            """)
    void analyzesOnlyATableFarLargerThanThePlannerBelieves(double believed, long rows, boolean analyze) {
        assertThat(PlannerStatistics.isStale(believed, rows)).isEqualTo(analyze);
    }
}
