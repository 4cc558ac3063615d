package io.drover.cli.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.cli.json.Json;
import io.drover.cli.output.Output;
import io.drover.cli.session.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DeployRequestTest {

    private static final DeployRequest.Strategy DEFAULTS = new DeployRequest.Strategy(null, null, null, null, null,
            false);

    @Test
    void onlyWhatTheFlagsChangeGoesThenTheStrategyAtTheTopLevel() {
        DeployRequest request = new DeployRequest(64, null, List.of(8080), List.of("VERSION=2"), "http:/health", 30,
                List.of("python3", "-m", "http.server"), new DeployRequest.Strategy("50%", "1", 5, 120, 1, true));
        assertThat(request.toJson(Json.object()).toString()).isEqualTo("{\"action\":{\"run\":{\"path\":\"python3\","
                + "\"args\":[\"-m\",\"http.server\"]}},\"memory_mb\":64,\"ports\":[8080],\"env\":[{\"name\":"
                + "\"VERSION\",\"value\":\"2\"}],\"check_definition\":{\"checks\":[{\"http_check\":{\"port\":8080,"
                + "\"path\":\"/health\"}}]},\"start_timeout\":30,\"max_surge\":\"50%\",\"max_unavailable\":1,"
                + "\"min_healthy_time\":5,\"progress_deadline\":120,\"canary\":1,\"auto_revert\":false}");
    }

    @Test
    void aFileGivesTheChangeAndFlagsOverrideIt() {
        var base = Json.object().put("memory_mb", 32).put("disk_mb", 64);
        DeployRequest request = new DeployRequest(128, null, List.of(), List.of(), null, null, List.of(), DEFAULTS);
        assertThat(request.toJson(base).toString()).isEqualTo("{\"memory_mb\":128,\"disk_mb\":64}");
    }

    @Test
    void aDeploymentThatChangesNothingIsAUsageError() {
        DeployRequest strategyOnly = new DeployRequest(null, null, List.of(), List.of(), null, null, List.of(),
                new DeployRequest.Strategy("2", null, null, null, null, false));
        assertThatThrownBy(() -> strategyOnly.toJson(Json.object())).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("what changes?");
    }

    @ParameterizedTest
    @CsvSource({ "50 percent, --max-surge takes a count (2) or a share", "-1, --max-surge takes a count",
            "%, --max-surge takes a count" })
    void aSurgeIsACountOrAShare(String surge, String message) {
        DeployRequest request = new DeployRequest(64, null, List.of(), List.of(), null, null, List.of(),
                new DeployRequest.Strategy(surge, null, null, null, null, false));
        assertThatThrownBy(() -> request.toJson(Json.object())).isInstanceOf(UsageException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void aCheckNeedsAPortAndAnUnderwayDeploymentIsActive() {
        DeployRequest request = new DeployRequest(null, null, List.of(), List.of(), "tcp", null, List.of(), DEFAULTS);
        assertThatThrownBy(() -> request.toJson(Json.object())).hasMessage("--check needs a --port to check");
        assertThat(DeployRequest.active(Json.parse("{\"state\":\"PAUSED\"}"))).isTrue();
        assertThat(DeployRequest.active(Json.parse("{\"state\":\"SUCCESSFUL\"}"))).isFalse();
    }

    @Test
    void aRolloutIsOneLineWithWhatToDoWhenItWaits() {
        Output output = new Output(new PrintStream(new ByteArrayOutputStream()), System.err, false, false);
        String line = RolloutView.line("web", Json.parse("""
                {"state":"WAITING_FOR_PROMOTION","from_version":1,"to_version":2,"created_by":"alice",
                 "created_at":"2025-01-01T00:00:00Z","counts":{"desired":4,"updated":1,"healthy":4,"unhealthy":0}}"""),
                Instant.parse("2025-01-01T00:03:00Z"), output);
        assertThat(line).isEqualTo("web: v1 -> v2 WAITING_FOR_PROMOTION, 1/4 updated, 4 healthy, 0 unhealthy; "
                + "started by alice 3m ago - the canary is up: drover rollout promote web");
        assertThat(RolloutView.line("web", Json.parse("{\"state\":\"REVERTED\",\"from_version\":2,\"to_version\":3,"
                + "\"failure_reason\":\"progress deadline passed\"}"), Instant.EPOCH, output))
                .endsWith("(progress deadline passed)");
    }
}
