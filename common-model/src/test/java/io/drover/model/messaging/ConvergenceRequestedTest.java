package io.drover.model.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which changes ask the converger for a pass, by their lifecycle event type. */
class ConvergenceRequestedTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            // a scale, an update or a redefinition may leave instances to create or retire beyond what it did itself
            "desired_lrp_changed,       true",
            "desired_lrp_removed,       true",
            // the index of a removed instance may still be desired (a restart, a stop, a lost evacuation)
            "actual_lrp_removed,        true",
            // the desire created every instance and the auction request in its own transaction
            "desired_lrp_created,       false",
            // an instance's own progress is the pipeline's business; rule 3 and the periodic pass watch it
            "actual_lrp_created,        false",
            "actual_lrp_changed,        false",
            "actual_lrp_crashed,        false",
            "actual_lrp_stop_requested, false",
            "task_created,              false",
            "task_changed,              false",
            "task_removed,              false",
            "deployment_changed,        false" })
    void asksForAPassOnlyWhenTheDesiredStateMayBeAheadOfTheInstances(String type, boolean asks) {
        assertThat(ConvergenceRequested.isAskedBy(type)).isEqualTo(asks);
    }
}
