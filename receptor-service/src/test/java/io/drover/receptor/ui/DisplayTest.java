package io.drover.receptor.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DisplayTest {

    @ParameterizedTest(name = "{0} of {1} is {2}%")
    @CsvSource({
            "0, 1024, 0",
            "256, 1024, 25",
            "1, 3, 33",
            "2, 3, 67",
            "1024, 1024, 100",
            "2000, 1024, 100",
            "5, 0, 0",
            "-5, 10, 0" })
    void percentIsWholeAndClamped(long used, long capacity, int percent) {
        assertThat(Display.percent(used, capacity)).isEqualTo(percent);
    }

    @ParameterizedTest(name = "{0} s ago reads {1}")
    @CsvSource({
            "-30, 0s",
            "0, 0s",
            "59, 59s",
            "60, 1m",
            "3599, 59m",
            "3600, 1h",
            "86399, 23h",
            "86400, 1d",
            "864000, 10d" })
    void agoReadsAtAGlance(long secondsAgo, String reads) {
        Instant now = Instant.parse("2026-11-30T12:00:00Z");
        assertThat(Display.ago(now.minusSeconds(secondsAgo), now)).isEqualTo(reads);
    }

    @ParameterizedTest(name = "{0} reads {1}")
    @CsvSource(delimiter = '|', value = { "0|0", "999|999", "100000|100,000" })
    void countsHaveThousandsSeparators(long n, String reads) {
        assertThat(Display.count(n)).isEqualTo(reads);
    }
}
