package io.drover.rep.usage;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.usage.InstanceUsage;
import io.drover.model.usage.UsageRound;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class UsageRoundsTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final long MIB = 1024 * 1024;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "same figures                  | 10.0 | 100 | 50 | false",
            "cpu within half a point       | 10.4 | 100 | 50 | false",
            "cpu moved half a point        | 10.5 | 100 | 50 | true",
            "memory within 2 %             | 10.0 | 101 | 50 | false",
            "memory moved 2 %              | 10.0 | 102 | 50 | true",
            "disk within 1 MiB             | 10.0 | 100 | 50.9 | false",
            "disk moved 1 MiB              | 10.0 | 100 | 51 | true" })
    void onlyFiguresThatMovedEnoughAreRewritten(String description, double cpu, double memoryMib, double diskMib,
            boolean changed) {
        InstanceUsage before = usage("ig-1", 10.0, 100 * MIB, 50 * MIB);
        InstanceUsage now = usage("ig-1", cpu, (long) (memoryMib * MIB), (long) (diskMib * MIB));

        assertThat(UsageRounds.changed(before, now)).isEqualTo(changed);
    }

    @Test
    void anInstanceNeverWrittenOrOfAnotherIncarnationIsAlwaysWritten() {
        InstanceUsage now = usage("ig-1", 1, MIB, MIB);

        assertThat(UsageRounds.changed(null, now)).isTrue();
        assertThat(UsageRounds.changed(new InstanceUsage("p", 1, "ig-1", "cell", 1, MIB, 0, MIB, T0), now)).isTrue();
        assertThat(UsageRounds.changed(new InstanceUsage("p", 0, "ig-1", "cell", 1, MIB, 0, MIB, T0.plusSeconds(1)),
                now)).isTrue();
    }

    @Test
    void theFirstRoundIsFullThenOnlyChangesAndRemovalsUntilTheNextFullRound() {
        UsageRounds rounds = new UsageRounds(() -> List.of("cell"), Duration.ofMinutes(60));
        InstanceUsage a = usage("a", 1, MIB, MIB);
        InstanceUsage b = usage("b", 1, MIB, MIB);

        UsageRound first = rounds.next(List.of(a, b), T0);
        assertThat(first.full()).isTrue();
        assertThat(first.upserts()).containsExactly(a, b);
        rounds.written(first, T0);

        UsageRound quiet = rounds.next(List.of(a, b), T0.plusSeconds(5));
        assertThat(quiet.isEmpty()).isTrue();
        rounds.written(quiet, T0.plusSeconds(5));

        InstanceUsage busyA = usage("a", 80, MIB, MIB);
        UsageRound delta = rounds.next(List.of(busyA), T0.plusSeconds(10));
        assertThat(delta.full()).isFalse();
        assertThat(delta.upserts()).containsExactly(busyA);
        assertThat(delta.removed()).containsExactly("b");
        rounds.written(delta, T0.plusSeconds(10));

        assertThat(rounds.next(List.of(busyA), T0.plusSeconds(15)).isEmpty()).isTrue();
        assertThat(rounds.next(List.of(busyA), T0.plusSeconds(3600)).full()).isTrue();
    }

    @Test
    void aRoundThatWasNotWrittenIsFoldedIntoTheNext() {
        UsageRounds rounds = new UsageRounds(() -> List.of("cell"), Duration.ofMinutes(60));
        InstanceUsage a = usage("a", 1, MIB, MIB);

        rounds.next(List.of(a), T0);
        UsageRound retried = rounds.next(List.of(a), T0.plusSeconds(5));

        assertThat(retried.full()).as("the first full round never reached the database").isTrue();
        assertThat(retried.upserts()).containsExactly(a);
    }

    @Test
    void aSteadyInstanceIsWrittenWhenItStartsAndRemovedWhenItEndsAndCostsNothingBetween() {
        UsageRounds rounds = new UsageRounds(() -> List.of("cell"), Duration.ofMinutes(60));
        InstanceUsage a = usage("a", 1, MIB, MIB);
        InstanceUsage b = usage("b", 1, MIB, MIB);
        rounds.written(rounds.next(steady(List.of(), Set.of(), List.of(a), 1), T0), T0);

        UsageRound started = rounds.next(steady(List.of(b), Set.of(), List.of(), 2), T0.plusSeconds(5));
        assertThat(started.full()).isFalse();
        assertThat(started.upserts()).containsExactly(b);
        rounds.written(started, T0.plusSeconds(5));

        UsageRound quiet = rounds.next(steady(List.of(), Set.of(), List.of(), 2), T0.plusSeconds(10));
        assertThat(quiet.isEmpty()).as("a and b run on: nothing to write, nothing looked at").isTrue();
        rounds.written(quiet, T0.plusSeconds(10));

        UsageRound ended = rounds.next(steady(List.of(), Set.of("a"), List.of(), 1), T0.plusSeconds(15));
        assertThat(ended.upserts()).isEmpty();
        assertThat(ended.removed()).containsExactly("a");
        rounds.written(ended, T0.plusSeconds(15));

        assertThat(rounds.next(steady(List.of(), Set.of(), List.of(), 1), T0.plusSeconds(20)).isEmpty()).isTrue();
    }

    @Test
    void steadyChangesOfARoundThatWasNotWrittenAreFoldedIntoTheNext() {
        UsageRounds rounds = new UsageRounds(() -> List.of("cell"), Duration.ofMinutes(60));
        InstanceUsage a = usage("a", 1, MIB, MIB);
        InstanceUsage b = usage("b", 1, MIB, MIB);
        rounds.written(rounds.next(steady(List.of(), Set.of(), List.of(a), 1), T0), T0);

        rounds.next(steady(List.of(b), Set.of("a"), List.of(), 1), T0.plusSeconds(5)); // the write failed
        UsageRound retried = rounds.next(steady(List.of(), Set.of(), List.of(), 1), T0.plusSeconds(10));

        assertThat(retried.upserts()).containsExactly(b);
        assertThat(retried.removed()).containsExactly("a");
        rounds.written(retried, T0.plusSeconds(10));
        assertThat(rounds.next(steady(List.of(), Set.of(), List.of(), 1), T0.plusSeconds(15)).isEmpty()).isTrue();
    }

    @Test
    void aFullRoundRewritesEverySteadyInstanceFromItsEveryRunningContainer() {
        UsageRounds rounds = new UsageRounds(() -> List.of("cell"), Duration.ofMinutes(60));
        InstanceUsage a = usage("a", 1, MIB, MIB);
        InstanceUsage b = usage("b", 1, MIB, MIB);
        rounds.written(rounds.next(steady(List.of(), Set.of(), List.of(a), 1), T0), T0);
        rounds.written(rounds.next(steady(List.of(b), Set.of(), List.of(), 2), T0.plusSeconds(5)), T0.plusSeconds(5));

        UsageRound full = rounds.next(steady(List.of(), Set.of(), List.of(a, b), 2), T0.plusSeconds(3600));

        assertThat(full.full()).isTrue();
        assertThat(full.upserts()).containsExactly(a, b);
    }

    private static UsageSample steady(List<InstanceUsage> started, Set<String> ended, List<InstanceUsage> all,
            long running) {
        return new UsageSample(List.of(), started, ended, all, running);
    }

    private static InstanceUsage usage(String instanceGuid, double cpu, long memory, long disk) {
        return new InstanceUsage("p", 0, instanceGuid, "cell", cpu, memory, 128 * MIB, disk, T0);
    }
}
