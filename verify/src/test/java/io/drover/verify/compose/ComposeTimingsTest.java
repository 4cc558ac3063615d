package io.drover.verify.compose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.verify.history.Entry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.yaml.snakeyaml.Yaml;

class ComposeTimingsTest {

    @ParameterizedTest
    @CsvSource({ "10s, 10", "500ms, 0.5", "2m, 120", "1h, 3600", "PT15S, 15", "1500, 1.5", "0.5s, 0.5", " 3s , 3" })
    void durationsAreReadAsSpringReadsThem(String value, double seconds) {
        assertThat(ComposeTimings.seconds(value)).isEqualTo(seconds);
    }

    @Test
    void aValueThatIsNoDurationIsAnError() {
        assertThatThrownBy(() -> ComposeTimings.seconds("soon")).hasMessageContaining("soon");
    }

    @Test
    void withoutVariablesTheServicesOwnDefaultsApply() {
        ComposeTimings t = ComposeTimings.of(Map.of(), Map.of(), Map.of());

        assertThat(t.timings()).isEqualTo(new Entry.Timings(15, 30, 10, 0, 10));
        assertThat(t.leaderTtl()).isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void theLongerLeaderTtlOfTheConvergerAndTheAuctioneerCounts() {
        assertThat(ComposeTimings.of(Map.of(), Map.of("DROVER_CONVERGER_LEADERTTL", "5s"),
                Map.of("DROVER_AUCTIONEER_LEADERTTL", "8s")).leaderTtl()).isEqualTo(Duration.ofSeconds(8));
    }

    /** The checker's allowances are those of the local verify cluster, and they are what the override file sets. */
    @Test
    void theVerifyOverrideGivesTheComposeClusterTheLocalVerifyClustersClocks() throws IOException {
        Map<String, Map<String, String>> env = environments(Path.of("..").resolve(ComposeCluster.VERIFY_FILE));

        ComposeTimings t = ComposeTimings.of(env.get("rep-1"), env.get("converger-1"), env.get("auctioneer-1"));

        assertThat(t.timings()).isEqualTo(new Entry.Timings(10, 3, 2, 0, 1));
        assertThat(t.leaderTtl()).isEqualTo(Duration.ofSeconds(5));
        assertThat(env.get("rep-2")).isEqualTo(env.get("rep-1"));
        assertThat(env.get("converger-2")).isEqualTo(env.get("converger-1"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, String>> environments(Path file) throws IOException {
        Map<String, Object> compose = new Yaml().load(Files.readString(file));
        Map<String, Map<String, String>> env = new HashMap<>();
        ((Map<String, Map<String, Object>>) compose.get("services")).forEach((name, service) -> {
            Map<String, String> vars = new HashMap<>();
            ((Map<String, Object>) service.getOrDefault("environment", Map.of()))
                    .forEach((k, v) -> vars.put(k, String.valueOf(v)));
            env.put(name, vars);
        });
        return env;
    }
}
