package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OptionsTest {

    private static final Set<String> KNOWN = Set.of("fresh", "cells", "data-dir");

    @Test
    void flagsAndValuesAreRead() {
        assertThat(Options.parse(new String[] {"--fresh", "--cells=2", "--data-dir=a=b"}, KNOWN))
                .containsExactly(Map.entry("fresh", "true"), Map.entry("cells", "2"), Map.entry("data-dir", "a=b"));
    }

    @Test
    void anUnknownOptionOrABareWordIsNamed() {
        assertThatThrownBy(() -> Options.parse(new String[] {"--cels=2"}, KNOWN)).hasMessage("unknown option --cels");
        assertThatThrownBy(() -> Options.parse(new String[] {"fresh"}, KNOWN)).hasMessage("unexpected argument: fresh");
    }

    @Test
    void numbersAreCheckedAgainstTheirMinimum() {
        assertThat(Options.number(Map.of(), "cells", 3, 0)).isEqualTo(3);
        assertThat(Options.number(Map.of("cells", "0"), "cells", 3, 0)).isZero();
        assertThatThrownBy(() -> Options.number(Map.of("cells", "-1"), "cells", 3, 0))
                .hasMessage("--cells needs a whole number of at least 0, not -1");
        assertThatThrownBy(() -> Options.number(Map.of("cells", "two"), "cells", 3, 0))
                .hasMessage("--cells needs a whole number of at least 0, not two");
    }
}
