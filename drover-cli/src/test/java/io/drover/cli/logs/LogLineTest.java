package io.drover.cli.logs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LogLineTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "2025-01-31T10:00:00.123Z [stdout] hello [x] | 2025-01-31T10:00:00.123Z | stdout | hello [x]",
            "2025-01-31T10:00:00.123Z [rep] crashed: exited with status 7 | 2025-01-31T10:00:00.123Z | rep | crashed: exited with status 7",
            "not a log line [stdout] x | '' | '' | not a log line [stdout] x",
            "plain | '' | '' | plain" })
    void takesALineApart(String raw, String timestamp, String source, String text) {
        LogLine line = LogLine.parse(2, raw);
        assertThat(line).isEqualTo(new LogLine(2, timestamp, source, text));
        assertThat(line.raw()).isEqualTo(raw);
    }
}
