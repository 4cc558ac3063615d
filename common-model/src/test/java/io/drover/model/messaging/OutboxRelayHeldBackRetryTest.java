package io.drover.model.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How soon a relay whose committed rows wait behind a running transaction looks again, by how long they waited. */
class OutboxRelayHeldBackRetryTest {

    @ParameterizedTest(name = "first {0}, waited {1} -> {2}")
    @CsvSource({
            // as short as the cluster's own transactions: every 5 ms, so a burst's rows leave as soon as they settle
            "PT0.005S, PT0S,     PT0.005S",
            "PT0.005S, PT0.1S,   PT0.005S",
            "PT0.005S, PT0.5S,   PT0.005S",
            // longer: 1 % of the wait, so the end of a transaction that writes nothing (no notification) is seen
            // after at most 1 % more waiting
            "PT0.005S, PT0.8S,   PT0.008S",
            "PT0.005S, PT10S,    PT0.1S",
            "PT0.005S, PT60S,    PT0.6S",
            // a client's transaction left open for minutes: a look a second, not 200
            "PT0.005S, PT100S,   PT1S",
            "PT0.005S, PT1H,     PT1S",
            // a configured first retry longer than 1 % of the wait stays the floor, the second the ceiling
            "PT0.2S,   PT10S,    PT0.2S",
            "PT5S,     PT0S,     PT1S" })
    void looksAgainAfterTheFirstRetryOrOnePercentOfTheWaitAtMostEverySecond(Duration first, Duration waited,
            Duration retry) {
        assertThat(OutboxRelay.heldBackRetry(first, waited)).isEqualTo(retry);
    }
}
