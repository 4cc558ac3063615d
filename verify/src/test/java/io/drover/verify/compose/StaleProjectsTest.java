package io.drover.verify.compose;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StaleProjectsTest {

    @ParameterizedTest(name = "{0} with live checkers {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            "drover-verify-9804                                   | 11958 | drover-verify-9804",
            "drover-verify-11958                                  | 11958 | ''",
            "drover-verify-9804 drover-verify-9804 drover-verify-11958 | 11958 | drover-verify-9804",
            "drover-compose-test drover-ha-test drover            | ''    | ''",
            "drover-verify-x drover-verify-                       | ''    | ''",
            "drover-verify-12 drover-verify-7                     | ''    | drover-verify-12 drover-verify-7",
    })
    void aProjectIsStaleWhenTheCheckerItIsNamedAfterIsGone(String names, String alive, String stale) {
        Set<Long> live = alive.isBlank() ? Set.of()
                : Set.of(alive.split(" ")).stream().map(Long::parseLong).collect(java.util.stream.Collectors.toSet());
        assertThat(StaleProjects.among(List.of(names.trim().split("\\s+")), live::contains))
                .isEqualTo(stale.isBlank() ? List.of() : List.of(stale.trim().split(" ")));
    }

    @ParameterizedTest(name = "pid {0}")
    @CsvSource({"0", "2147483646"})
    void aPidNoProcessHasIsNotAlive(long pid) {
        assertThat(StaleProjects.checkerAlive(pid)).isFalse();
    }
}
