package io.drover.converger.callback;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The answer to a callback, case by case. */
class CallbackPolicyTest {

    static final Duration RETRY_FOR = Duration.ofSeconds(30);

    @ParameterizedTest(name = "status {0}, attempt {1}, {2} ms in: {3} after {4} ms")
    @CsvSource(nullValues = "none", value = {
            "200,  1, 0,     RESOLVE, 0",
            "204,  5, 20000, RESOLVE, 0",
            "503,  1, 0,     RETRY,   250",
            "504,  2, 300,   RETRY,   500",
            "none, 3, 800,   RETRY,   1000",
            "503,  8, 10000, RETRY,   5000",
            "503,  9, 26000, GIVE_UP, 0",
            "none, 2, 29900, GIVE_UP, 0",
            "500,  1, 0,     GIVE_UP, 0",
            "404,  1, 0,     GIVE_UP, 0",
            "302,  1, 0,     GIVE_UP, 0" })
    void decides(Integer status, int attempt, long elapsedMs, CallbackPolicy.Verdict verdict, long delayMs) {
        CallbackPolicy.Decision decision = CallbackPolicy.decide(status, attempt, Duration.ofMillis(elapsedMs),
                RETRY_FOR);

        assertThat(decision.verdict()).isEqualTo(verdict);
        assertThat(decision.delay()).isEqualTo(Duration.ofMillis(delayMs));
    }
}
