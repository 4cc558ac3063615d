package io.drover.model.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IsoInstantsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            # an instant, as Instant.parse reads it and Instant.toString writes it
            1970-01-01T00:00:00Z
            1970-01-01T00:00:00.001Z
            1970-01-01T00:00:00.000001Z
            1970-01-01T00:00:00.000000001Z
            1999-12-31T23:59:59.999999999Z
            2000-02-29T12:00:00.100Z
            2024-02-29T00:00:00Z
            2026-12-01T10:23:57.544926590Z
            2026-12-01T10:23:57.544926Z
            2026-12-01T10:23:57.544Z
            2100-03-01T00:00:00Z
            9999-12-31T23:59:59.999999999Z
            +10000-01-01T00:00:00Z
            1969-12-31T23:59:59.999Z
            -0001-01-01T00:00:00Z
            """)
    void writesWhatInstantToStringWrites(String text) {
        Instant instant = Instant.parse(text);

        assertThat(IsoInstants.format(instant)).isEqualTo(instant.toString()).isEqualTo(text);
    }

    @Test
    void agreesWithInstantToStringOn200000InstantsAroundAndBetween1970And9999() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            long seconds = random.nextLong(-1_000_000_000L, 253_402_300_800L + 1_000_000_000L);
            int nanos = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1_000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1_000;
                default -> random.nextInt(1_000_000_000);
            };
            Instant instant = Instant.ofEpochSecond(seconds, nanos);
            assertThat(IsoInstants.format(instant)).as("%d s %d ns", seconds, nanos).isEqualTo(instant.toString());
        }
    }
}
