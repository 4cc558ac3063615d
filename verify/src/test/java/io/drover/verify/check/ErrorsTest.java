package io.drover.verify.check;

import static io.drover.verify.check.Calls.call;
import static io.drover.verify.check.Fixtures.fault;
import static io.drover.verify.check.Fixtures.meta;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.verify.history.History;
import io.drover.verify.history.Kinds;
import org.junit.jupiter.api.Test;

class ErrorsTest {

    @Test
    void aHostileRequestAnsweredWithA5xxIsCaught() {
        assertThat(Errors.check(History.of(meta(), call("hostile", Kinds.HOSTILE, "a", "PUT", "/v1/desired_lrps/a",
                "garbage", "{}", 0, 10, 500, null, "{}"))).anomalies()).hasSize(1);
        assertThat(Errors.check(History.of(meta(), call("hostile", Kinds.HOSTILE, "a", "PUT", "/v1/desired_lrps/a",
                "garbage", "{}", 0, 10, 400, null, "{}"))).anomalies()).isEmpty();
        assertThat(Errors.check(History.of(meta(), fault(FaultKinds.DATABASE, "postgres", 0, 5000),
                call("hostile", Kinds.HOSTILE, "a", "POST", "/v1/tasks", null, "{}", 100, 110, 503, null, "{}")))
                .anomalies()).as("storage away: even a bad request may be told so").isEmpty();
    }

    @Test
    void a503IsAnAnswerOnlyWhileTheDatabaseIsAway() {
        var during = call("c1", Kinds.UPDATE, "a", "PUT", "/v1/desired_lrps/a", null, "{}", 2000, 2010, 503, null, "");
        assertThat(Errors.check(History.of(meta(), fault(FaultKinds.DATABASE, "postgres", 1000, 5000), during))
                .anomalies()).isEmpty();
        assertThat(Errors.check(History.of(meta(), during)).anomalies()).hasSize(1);
        var begunJustBefore = call("c1", Kinds.UPDATE, "a", "PUT", "/v1/desired_lrps/a", null, "{}", 990, 1010, 503,
                null, "");
        assertThat(Errors.check(History.of(meta(), fault(FaultKinds.DATABASE, "postgres", 1000, 5000), begunJustBefore))
                .anomalies()).isEmpty();
        assertThat(Errors.check(History.of(meta(), call("c1", Kinds.UPDATE, "a", "PUT", "/v1/desired_lrps/a", null,
                "{}", 2000, 2010, 500, null, ""))).anomalies()).hasSize(1);
    }
}
