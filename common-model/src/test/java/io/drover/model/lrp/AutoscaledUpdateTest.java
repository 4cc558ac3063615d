package io.drover.model.lrp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC 17 on the desired LRP's update: while a policy is set the autoscaler owns {@code instances} within [min, max]. A
 * count outside the range is refused, one inside it is taken; a new policy brings the count into its range; removing
 * the policy keeps the count.
 */
class AutoscaledUpdateTest {

    private static final Instant NOW = Instant.parse("2026-12-01T01:00:00Z");
    private static final UUID EPOCH = UUID.fromString("00000000-0000-0000-0000-00000000000e");
    private static final AutoscalingPolicy TWO_TO_SIX = new AutoscalingPolicy(2, 6, 60, null, 0, 300);
    private static final AutoscalingPolicy ONE_TO_TWO = new AutoscalingPolicy(1, 2, 60, null, 0, 300);
    private static final AutoscalingPolicy FIVE_TO_NINE = new AutoscalingPolicy(5, 9, null, 80, 30, 60);

    static Stream<Arguments> updates() {
        return Stream.of(
                // policy before, update, instances after (null: nothing changes), policy after
                Arguments.of("a count inside the range is taken", TWO_TO_SIX, update(5, null), 5, TWO_TO_SIX),
                Arguments.of("the range's ends are inside", TWO_TO_SIX, update(6, null), 6, TWO_TO_SIX),
                Arguments.of("an annotation alone leaves the count", TWO_TO_SIX, new DesiredLrpUpdate(null, null,
                        "n", null), 3, TWO_TO_SIX),
                Arguments.of("a narrower policy brings the count down into its range", TWO_TO_SIX,
                        update(null, Optional.of(ONE_TO_TWO)), 2, ONE_TO_TWO),
                Arguments.of("a higher policy brings the count up into its range", null,
                        update(null, Optional.of(FIVE_TO_NINE)), 5, FIVE_TO_NINE),
                Arguments.of("a policy and a count in its range together", null,
                        update(7, Optional.of(FIVE_TO_NINE)), 7, FIVE_TO_NINE),
                Arguments.of("removing the policy keeps the count", TWO_TO_SIX, update(null, Optional.empty()), 3,
                        null),
                Arguments.of("removing it and scaling at once", TWO_TO_SIX, update(10, Optional.empty()), 10, null),
                Arguments.of("the same policy again changes nothing", TWO_TO_SIX,
                        update(null, Optional.of(TWO_TO_SIX)), null, TWO_TO_SIX),
                Arguments.of("removing no policy changes nothing", null, update(null, Optional.empty()), null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("updates")
    void anUpdateOfAnAutoscaledLrp(String name, AutoscalingPolicy before, DesiredLrpUpdate update, Integer instances,
            AutoscalingPolicy after) {
        Optional<DesiredLrpSnapshot> updated = snapshot(3, before).updatedBy(update, NOW);
        if (instances == null) {
            assertThat(updated).isEmpty();
            return;
        }
        assertThat(updated.orElseThrow().definition().instances()).isEqualTo(instances);
        assertThat(updated.orElseThrow().definition().autoscaling()).isEqualTo(after);
        assertThat(updated.orElseThrow().modificationTag().index()).isEqualTo(8);
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("above the range", TWO_TO_SIX, update(7, null)),
                Arguments.of("below the range", TWO_TO_SIX, update(1, null)),
                Arguments.of("to zero", TWO_TO_SIX, update(0, null)),
                Arguments.of("outside the range of the policy it sets", null, update(3, Optional.of(FIVE_TO_NINE))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void aCountOutsideThePolicysRangeIsRefusedNamingThePolicy(String name, AutoscalingPolicy before,
            DesiredLrpUpdate update) {
        assertThatThrownBy(() -> snapshot(3, before).updatedBy(update, NOW))
                .isInstanceOf(AutoscaledInstancesException.class)
                .hasMessageContaining("outside the range").hasMessageContaining("autoscaling policy of web");
    }

    @Test
    void aNewLrpWithACountOutsideItsPolicysRangeIsRefused() {
        DesiredLrpDefinition d = snapshot(1, FIVE_TO_NINE).definition();
        assertThatThrownBy(() -> DesiredLrpSnapshot.create(d, EPOCH, NOW))
                .isInstanceOf(AutoscaledInstancesException.class);
        assertThat(DesiredLrpSnapshot.create(snapshot(5, FIVE_TO_NINE).definition(), EPOCH, NOW).definition()
                .autoscaling()).isEqualTo(FIVE_TO_NINE);
    }

    @Test
    void aDeploymentKeepsThePolicy() {
        DesiredLrpSnapshot before = snapshot(3, TWO_TO_SIX);
        Deployable v3 = Deployable.of(before.definition());
        Deployable bigger = new Deployable(v3.action(), v3.monitor(), v3.checkDefinition(), v3.startTimeout(),
                v3.env(), v3.ports(), 256, v3.diskMb(), v3.maxPids(), v3.cpuWeight(), v3.placementTags());
        assertThat(before.redefinedBy(bigger, 3, NOW).orElseThrow().definition().autoscaling())
                .isEqualTo(TWO_TO_SIX);
    }

    private static DesiredLrpUpdate update(Integer instances, Optional<AutoscalingPolicy> autoscaling) {
        return new DesiredLrpUpdate(instances, null, null, autoscaling);
    }

    private static DesiredLrpSnapshot snapshot(int instances, AutoscalingPolicy policy) {
        DesiredLrpDefinition definition = new DesiredLrpDefinition("web", "d", "preloaded:host", instances,
                new Action(new RunAction("sleep", List.of("100"), null, List.of(), null), null, null, null, null,
                        null, null, null),
                null, null, 30, List.of(), List.of(8080), 64, 128, 10, 50, List.of(), null, null, null, null,
                policy);
        return new DesiredLrpSnapshot(definition, new ModificationTag(EPOCH, 7), NOW, NOW, 2);
    }
}
