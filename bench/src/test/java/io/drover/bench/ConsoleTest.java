package io.drover.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConsoleTest {

    @ParameterizedTest
    @CsvSource(delimiterString = "=>", textBlock = """
            0      => 0 s
            44.6   => 45 s
            59.4   => 59 s
            250    => 4 min 10 s
            3601   => 60 min 01 s
            -1     => unknown
            """)
    void durationsReadAsPeopleSayThem(double seconds, String said) {
        assertThat(Console.duration(seconds)).isEqualTo(said);
    }

    @Test
    void aProgressLineSaysHowManyOfHowManyTheRateAndTheTimeLeft() {
        try (Console.Progress progress = Console.progress("P1", 1_000_000, "RUNNING")) {
            progress.update(412_345);
            assertThat(progress.line()).matches("P1: 412,345 of 1,000,000 RUNNING after \\d+ s, [\\d,]+/s, ETA .+");
        }
    }

    @Test
    void aCountdownSaysHowManyWent() {
        try (Console.Progress progress = Console.countdown("rows", 100, "removed")) {
            progress.update(30);
            assertThat(progress.line()).startsWith("rows: 70 of 100 removed");
            progress.update(0);
            assertThat(progress.line()).endsWith("done");
        }
    }

    @Test
    void nothingDoneYetHasNoEta() {
        try (Console.Progress progress = Console.progress("tasks", 10, "called back")) {
            assertThat(progress.line()).endsWith("0/s, ETA unknown");
        }
    }
}
