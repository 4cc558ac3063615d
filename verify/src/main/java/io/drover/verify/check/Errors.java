package io.drover.verify.check;

import io.drover.verify.history.Entry;
import io.drover.verify.history.History;
import io.drover.verify.history.Kinds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Bad input and errors (SPEC 5.1, 12): no call, hostile or ordinary, is answered with a 5xx, except 503 while the
 * database is away (a call that overlaps its restart or the {@code sync-interval + 10 s} after): a request that cannot
 * be judged without storage, bad or not, is told so. That a hostile request
 * changed nothing is the linearizability check's business: its effect would be a value no call wrote.
 */
public final class Errors {

    public static final String NAME = "errors";
    private static final long DATABASE_GRACE = 10_000_000;

    private Errors() {
    }

    public static CheckResult check(History history) {
        List<Entry.Call> calls = history.all(Entry.Call.class).toList();
        if (calls.isEmpty()) {
            return CheckResult.skipped(NAME, "no call recorded");
        }
        Windows windows = Windows.of(history);
        long grace = NeverTwoAtOnce.micros(history.timings().syncInterval()) + DATABASE_GRACE;
        List<Anomaly> anomalies = new ArrayList<>();
        long hostile = 0;
        long unanswered = 0;
        for (Entry.Call c : calls) {
            boolean isHostile = c.kind().equals(Kinds.HOSTILE);
            hostile += isHostile ? 1 : 0;
            unanswered += c.answered() ? 0 : 1;
            if (c.status() < 500 || c.status() == 503 && windows.databaseDown(c.invoke(), c.complete(), grace)) {
                continue;
            }
            if (isHostile) {
                anomalies.add(Anomaly.of(NAME, c.key(), c.complete(), "hostile request answered " + c.status(),
                        c.method() + " " + abbreviate(c.path()) + " " + abbreviate(c.requestBody()),
                        "answer: " + abbreviate(c.body())));
            } else {
                anomalies.add(Anomaly.of(NAME, c.key(), c.complete(), c.kind() + " answered " + c.status()
                        + (c.status() == 503 ? " while the database was up" : ""),
                        c.method() + " " + c.path() + " " + abbreviate(c.requestBody()), "answer: " + abbreviate(c.body())));
            }
        }
        return CheckResult.ran(NAME, anomalies, Map.of("hostile", hostile, "unanswered", unanswered));
    }

    private static String abbreviate(String text) {
        return text == null ? "" : text.length() <= 300 ? text : text.substring(0, 300) + "... (" + text.length() + " chars)";
    }
}
