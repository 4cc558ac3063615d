package io.drover.rep.executor.simulated;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.lrp.Action;
import io.drover.model.lrp.RunAction;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A simulated cell's abstract run of an action tree: how long it takes and how it ends, kind by kind. */
class SimulatedActionsTest {

    static final Duration STEP = Duration.ofMillis(100);
    static final Action OK = new Action(new RunAction("work", List.of(), null, List.of(), null));
    static final Action FAIL = new Action(new RunAction("false", List.of(), null, List.of(), null));

    static Stream<Arguments> trees() {
        return Stream.of(
                Arguments.of("run", OK, 100, null),
                Arguments.of("run false", FAIL, 100, "exited with status 1"),
                Arguments.of("download", Action.downloading("file:///a.tgz", "a", null), 0, null),
                Arguments.of("serial adds up", Action.inSerial(List.of(OK, OK, OK)), 300, null),
                Arguments.of("serial stops at the first failure", Action.inSerial(List.of(OK, FAIL, OK)), 200,
                        "exited with status 1"),
                Arguments.of("parallel lasts as long as its longest", Action.inParallel(List.of(OK,
                        Action.inSerial(List.of(OK, OK)))), 200, null),
                Arguments.of("parallel fails with a failure", Action.inParallel(List.of(OK, FAIL)), 100,
                        "exited with status 1"),
                Arguments.of("codependent ends with its first", Action.codependently(List.of(
                        Action.inSerial(List.of(OK, OK, OK)), OK)), 100, null),
                Arguments.of("timeout fails what outlasts it", Action.withTimeout(Action.inSerial(List.of(OK, OK)),
                        150), 150, "exceeded 150 ms timeout"),
                Arguments.of("timeout lets through what ends in time", Action.withTimeout(OK, 150), 100, null),
                Arguments.of("try swallows a failure", Action.trying(FAIL), 100, null),
                Arguments.of("emit_progress changes nothing", Action.emittingProgress(FAIL, "a", "b", "c"), 100,
                        "exited with status 1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void runsTheTreeAbstractly(String name, Action tree, long tookMs, String failure) {
        SimulatedActions.Ending ending = SimulatedActions.run(tree, STEP);

        assertThat(ending.took()).isEqualTo(Duration.ofMillis(tookMs));
        assertThat(ending.failure()).isEqualTo(failure);
    }
}
