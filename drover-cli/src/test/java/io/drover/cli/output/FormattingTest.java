package io.drover.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FormattingTest {

    private static final Instant NOW = Instant.parse("2025-01-31T12:00:00Z");

    @ParameterizedTest
    @CsvSource({ "0, 0s ago", "59, 59s ago", "60, 1m ago", "3599, 59m ago", "3600, 1h ago", "86399, 23h ago",
            "86400, 1d ago", "-5, just now" })
    void agoSaysTheLargestWholeUnit(long secondsAgo, String expected) {
        assertThat(Ago.of(NOW.minusSeconds(secondsAgo), NOW)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({ "25, in 25s", "90, in 1m", "7200, in 2h", "-3, in 0s" })
    void untilSaysHowLongIsLeft(long secondsAhead, String expected) {
        assertThat(Ago.until(NOW.plusSeconds(secondsAhead), NOW)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = { "0 | 4096 | MB | [----------] 0/4096 MB", "1024 | 4096 | MB | [###-------] 1024/4096 MB",
            "64 | 64 | '' | [##########] 64/64", "70 | 64 | '' | [##########] 70/64", "3 | 0 | '' | [----------] 3/0" })
    void barsFillInProportion(long used, long total, String unit, String expected) {
        assertThat(Bar.of(used, total, 10, unit)).isEqualTo(expected);
    }

    @Test
    void tablesAlignColumnsIgnoringColourCodes() {
        Table table = new Table("INDEX", "STATE", "CELL").row("0", Ansi.GREEN.paint("RUNNING"), "cell-z1")
                .row("10", "CLAIMED", "-");
        assertThat(table.lines()).containsExactly("INDEX  STATE    CELL", "0      " + Ansi.GREEN.paint("RUNNING")
                + "  cell-z1", "10     CLAIMED  -");
    }

    @Test
    void colourIsOnlyPaintedOnATerminalAndNeverIntoJson() {
        assertThat(new Output(System.out, System.err, false, true).paint(Ansi.RED, "x")).isEqualTo("\u001b[31mx\u001b[0m");
        assertThat(new Output(System.out, System.err, false, false).paint(Ansi.RED, "x")).isEqualTo("x");
        assertThat(new Output(System.out, System.err, true, true).paint(Ansi.RED, "x")).isEqualTo("x");
    }
}
