package io.drover.receptor.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.model.json.Json;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.Deployable;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpSnapshot;
import io.drover.model.lrp.ModificationTag;
import io.drover.model.lrp.RunAction;
import io.drover.receptor.web.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Deployment requests: what a body changes over the current definition, its strategy, and every bad field named. */
class DeploymentRequestsTest {

    static final DesiredLrpSnapshot CURRENT = new DesiredLrpSnapshot(new DesiredLrpDefinition("web", "d",
            "preloaded:host", 3, new Action(new RunAction("sleep", List.of("1"), null, null, null)), null,
            new CheckDefinition(List.of()), 30, null, List.of(8080), 64, 32, 0, 0, List.of("blue"), null, null,
            null, null), new ModificationTag(UUID.randomUUID(), 0), Instant.EPOCH, Instant.EPOCH);

    @Test
    void onlyTheGivenFieldsChangeAndTheStrategyHasItsDefaults() {
        DeploymentRequests.Request r = DeploymentRequests.parse(Json.tree("{\"memory_mb\": 128}"));

        Deployable d = r.change().apply(CURRENT);
        assertThat(d.memoryMb()).isEqualTo(128);
        assertThat(d.action()).isEqualTo(CURRENT.definition().action());
        assertThat(d.checkDefinition()).isEqualTo(CURRENT.definition().checkDefinition());
        assertThat(d.placementTags()).containsExactly("blue");
        assertThat(r.strategy().surge(3)).isEqualTo(1);
        assertThat(r.strategy().unavailable(3)).isZero();
        assertThat(r.strategy().minHealthyTime()).isEqualTo(Duration.ofSeconds(10));
        assertThat(r.strategy().progressDeadline()).isEqualTo(Duration.ofMinutes(10));
        assertThat(r.strategy().autoRevert()).isTrue();
        assertThat(r.rollbackTo()).isNull();
    }

    @Test
    void aNewMonitorReplacesTheChecks() {
        Deployable d = DeploymentRequests.parse(Json.tree("{\"monitor\": {\"run\": {\"path\": \"true\"}}}")).change()
                .apply(CURRENT);
        assertThat(d.monitor().path()).isEqualTo("true");
        assertThat(d.checkDefinition()).isNull();
    }

    @Test
    void aRollbackCarriesOnlyItsVersionAndTheStrategy() {
        DeploymentRequests.Request r = DeploymentRequests.parse(Json.tree("""
                {"rollback_to": 3, "max_surge": 2, "max_unavailable": "50%", "auto_revert": false, "canary": 1}"""));
        assertThat(r.rollbackTo()).isEqualTo(3);
        assertThat(r.change()).isNull();
        assertThat(r.strategy().surge(10)).isEqualTo(2);
        assertThat(r.strategy().unavailable(5)).isEqualTo(2);
        assertThat(r.strategy().autoRevert()).isFalse();
        assertThat(r.strategy().canary()).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "{}                                              | one of",
        "{\"rollback_to\": 2, \"env\": []}                | rollback_to",
        "{\"rollback_to\": 0}                             | rollback_to",
        "{\"memory_mb\": -1}                              | memory_mb",
        "{\"cpu_weight\": 101}                            | cpu_weight",
        "{\"memory_mb\": 1, \"max_surge\": \"x%\"}         | max_surge",
        "{\"memory_mb\": 1, \"max_surge\": \"101%\"}       | max_surge",
        "{\"memory_mb\": 1, \"max_unavailable\": 1.5}     | max_unavailable",
        "{\"memory_mb\": 1, \"progress_deadline\": 0}     | progress_deadline",
        "{\"memory_mb\": 1, \"auto_revert\": 1}           | auto_revert",
        "{\"memory_mb\": 1, \"instances\": 4}             | instances",
        "{\"ports\": [70000]}                             | ports"})
    void badFieldsAreNamed(String body, String field) {
        assertThatThrownBy(() -> DeploymentRequests.parse(Json.tree(body))).isInstanceOf(ApiException.class)
                .hasMessageContaining(field);
    }
}
