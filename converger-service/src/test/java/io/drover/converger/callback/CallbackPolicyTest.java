package io.drover.converger.callback;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The answer to a callback's attempt, case by case: 10 attempts at most, 15 min, back-off from 1 s to 1 min. */
class CallbackPolicyTest {

    static final CallbackPolicy.Budget BUDGET = new CallbackPolicy.Budget(10, Duration.ofMinutes(15),
            Duration.ofSeconds(1), Duration.ofMinutes(1));

    @ParameterizedTest(name = "status {0}, attempt {1}, {2} s after completion: {3} after {4} ms")
    @CsvSource(nullValues = "none", value = {
            "200,  1, 0,   DELIVERED, 0",
            "204,  9, 600, DELIVERED, 0",
            "503,  1, 0,   RETRY,     1000",
            "504,  2, 1,   RETRY,     2000",
            "429,  3, 3,   RETRY,     4000",
            "none, 4, 7,   RETRY,     8000",
            "503,  7, 127, RETRY,     60000",
            "503,  9, 300, RETRY,     60000",
            "503,  10, 360, GIVE_UP,  0",
            "none, 2, 899, GIVE_UP,   0",
            "500,  1, 0,   GIVE_UP,   0",
            "502,  1, 0,   GIVE_UP,   0",
            "404,  1, 0,   GIVE_UP,   0",
            "302,  1, 0,   GIVE_UP,   0" })
    void decides(Integer status, int attempt, long sinceCompletedS, CallbackPolicy.Verdict verdict, long delayMs) {
        CallbackPolicy.Decision decision = CallbackPolicy.decide(status, attempt, Duration.ofSeconds(sinceCompletedS),
                BUDGET);

        assertThat(decision.verdict()).isEqualTo(verdict);
        assertThat(decision.delay()).isEqualTo(Duration.ofMillis(delayMs));
    }
}
