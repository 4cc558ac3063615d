package io.drover.model.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class InstantsTest {

    @ParameterizedTest(name = "{0} and {1}: earlier {2}, later {3}")
    @CsvSource(nullValues = "none", textBlock = """
            # a,    b,    earlier, later
              none, none, none,    none
              10,   none, 10,      10
              none, 10,   10,      10
              10,   20,   10,      20
              20,   10,   10,      20
              10,   10,   10,      10
            """)
    void nullMeansNone(Long a, Long b, Long earlier, Long later) {
        assertThat(Instants.earlier(at(a), at(b))).isEqualTo(at(earlier));
        assertThat(Instants.later(at(a), at(b))).isEqualTo(at(later));
    }

    private static Instant at(Long seconds) {
        return seconds == null ? null : Instant.ofEpochSecond(seconds);
    }
}
