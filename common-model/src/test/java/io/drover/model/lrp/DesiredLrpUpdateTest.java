package io.drover.model.lrp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the verbs make of a desired LRP: an update (SPEC 5.3) only instances, routes and annotation, a deployment (SPEC
 * 14) only the deployable part and the definition version, both at the next version of the same incarnation.
 */
class DesiredLrpUpdateTest {

    private static final Instant CREATED = Instant.parse("2026-12-01T00:00:00Z");
    private static final Instant NOW = Instant.parse("2026-12-01T01:00:00Z");
    private static final UUID EPOCH = UUID.fromString("00000000-0000-0000-0000-00000000000e");

    static Stream<Arguments> updates() {
        return Stream.of(
                Arguments.of("nothing given", new DesiredLrpUpdate(null, null, null), null),
                Arguments.of("the same instances", new DesiredLrpUpdate(3, null, null), null),
                Arguments.of("the same routes and annotation", new DesiredLrpUpdate(null, "{\"r\":1}", "note"), null),
                Arguments.of("scale up", new DesiredLrpUpdate(5, null, null), new Expected(5, "{\"r\":1}", "note")),
                Arguments.of("scale to zero", new DesiredLrpUpdate(0, null, null), new Expected(0, "{\"r\":1}", "note")),
                Arguments.of("new routes", new DesiredLrpUpdate(null, "{\"r\":2}", null),
                        new Expected(3, "{\"r\":2}", "note")),
                Arguments.of("annotation and instances", new DesiredLrpUpdate(1, null, "other"),
                        new Expected(1, "{\"r\":1}", "other")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("updates")
    void anUpdateChangesOnlyItsThreeFieldsAtTheNextVersion(String name, DesiredLrpUpdate update, Expected expected) {
        DesiredLrpSnapshot before = snapshot();
        var after = before.updatedBy(update, NOW);
        if (expected == null) {
            assertThat(after).as("nothing changes, no new version").isEmpty();
            return;
        }
        DesiredLrpSnapshot updated = after.orElseThrow();
        assertThat(updated.definition().instances()).isEqualTo(expected.instances());
        assertThat(updated.definition().routes()).isEqualTo(expected.routes());
        assertThat(updated.definition().annotation()).isEqualTo(expected.annotation());
        assertThat(updated.modificationTag()).isEqualTo(new ModificationTag(EPOCH, 8));
        assertThat(updated.updatedAt()).isEqualTo(NOW);
        assertThat(updated.createdAt()).isEqualTo(CREATED);
        assertThat(updated.definitionVersion()).isEqualTo(2);
        DesiredLrpDefinition d = updated.definition();
        assertThat(new DesiredLrpDefinition(d.processGuid(), d.domain(), d.rootfs(), 3, d.action(), d.monitor(),
                d.checkDefinition(), d.startTimeout(), d.env(), d.ports(), d.memoryMb(), d.diskMb(), d.maxPids(),
                d.cpuWeight(), d.placementTags(), "{\"r\":1}", "note", d.logGuid(), d.metricsGuid()))
                .as("everything else is as it was").isEqualTo(before.definition());
    }

    @Test
    void aNewLrpIsANewIncarnationAtVersionZeroRunningDefinitionVersionOne() {
        DesiredLrpSnapshot created = DesiredLrpSnapshot.create(snapshot().definition(), EPOCH, NOW);
        assertThat(created.modificationTag()).isEqualTo(new ModificationTag(EPOCH, 0));
        assertThat(created.definitionVersion()).isEqualTo(1);
        assertThat(created.createdAt()).isEqualTo(NOW).isEqualTo(created.updatedAt());
    }

    @Test
    void aDeploymentChangesOnlyTheDeployablePartAndTheDefinitionVersionAtTheNextVersion() {
        DesiredLrpSnapshot before = snapshot();
        Deployable v3 = new Deployable(new Action(new RunAction("sleep", List.of("300"), null, List.of(), null), null,
                null, null, null, null, null, null), null, null, 5, List.of(new EnvVar("B", "2")), List.of(9090), 32,
                64, 5, 20, List.of("z2"));

        DesiredLrpSnapshot after = before.redefinedBy(v3, 3, NOW).orElseThrow();

        assertThat(Deployable.of(after.definition())).isEqualTo(v3);
        assertThat(Deployable.of(before.definition()).applyTo(after.definition())).as("everything else is as it was")
                .isEqualTo(before.definition());
        assertThat(after.definitionVersion()).isEqualTo(3);
        assertThat(after.modificationTag()).isEqualTo(new ModificationTag(EPOCH, 8));
        assertThat(after.updatedAt()).isEqualTo(NOW);
        assertThat(after.createdAt()).isEqualTo(CREATED);
    }

    @Test
    void aDeploymentToTheCurrentDefinitionVersionChangesNothing() {
        DesiredLrpSnapshot before = snapshot();
        assertThat(before.redefinedBy(Deployable.of(before.definition()), 2, NOW)).isEmpty();
    }

    private static DesiredLrpSnapshot snapshot() {
        DesiredLrpDefinition definition = new DesiredLrpDefinition("web", "d", "preloaded:host", 3,
                new Action(new RunAction("sleep", List.of("100"), null, List.of(), null), null, null, null, null,
                        null, null, null),
                null, null, 30, List.of(new EnvVar("A", "1")), List.of(8080), 64, 128, 10, 50, List.of("z1"),
                "{\"r\":1}", "note", "log", "metrics");
        return new DesiredLrpSnapshot(definition, new ModificationTag(EPOCH, 7), CREATED, CREATED, 2);
    }

    record Expected(int instances, String routes, String annotation) {
    }
}
