package io.drover.rep.executor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LogLineTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "2025-01-31T10:00:00.123456Z | STDOUT | hello world | 2025-01-31T10:00:00.123Z [stdout] hello world",
            "2025-01-31T10:00:00Z        | STDERR | oops [x] y  | 2025-01-31T10:00:00.000Z [stderr] oops [x] y",
            "2025-01-31T10:00:00.5Z      | REP    | crashed: exited with status 7 | 2025-01-31T10:00:00.500Z [rep] crashed: exited with status 7" })
    void formatsAndReadsBackALine(String at, LogSource source, String text, String formatted) {
        LogLine line = new LogLine(Instant.parse(at), source, text);
        assertThat(line.format()).isEqualTo(formatted);
        assertThat(LogLine.parse(formatted)).contains(line);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = { "hello", "2025-01-31T10:00:00.000Z hello", "yesterday [stdout] hi",
            "2025-01-31T10:00:00.000Z [console] hi", "2025-01-31T10:00:00.000Z [stdout]" })
    void anythingElseIsNoLine(String text) {
        assertThat(LogLine.parse(text)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = { "'' | ''", "a | a" })
    void textNeverHoldsALineBreak(String before, String after) {
        assertThat(new LogLine(Instant.EPOCH, LogSource.STDOUT, before + "\n" + after).text())
                .isEqualTo(before + " " + after);
    }
}
