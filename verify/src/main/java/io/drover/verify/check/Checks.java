package io.drover.verify.check;

import io.drover.verify.history.History;
import java.util.List;
import java.util.function.Function;

/** Every check, in the order the report lists them. */
public final class Checks {

    public static final List<Function<History, CheckResult>> ALL = List.of(DesiredLinearizable::check,
            NeverTwoAtOnce::check, RecordTruth::check, Convergence::check, Tasks::check, Events::check, Errors::check);

    private Checks() {
    }

    public static List<CheckResult> run(History history) {
        return ALL.stream().map(check -> check.apply(history)).toList();
    }
}
