package io.drover.verify.check;

import io.drover.model.json.Json;
import io.drover.verify.check.DesiredRegister.Op;
import io.drover.verify.check.DesiredRegister.Out;
import io.drover.verify.check.DesiredRegister.Tag;
import io.drover.verify.check.linear.Linearizability;
import io.drover.verify.check.linear.Operation;
import io.drover.verify.history.Entry;
import io.drover.verify.history.History;
import io.drover.verify.history.Kinds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import tools.jackson.databind.JsonNode;

/**
 * Check 1, desired state is linearizable: per process guid (a partition of its own, as in Porcupine), the acknowledged
 * creates, updates (compare-and-set by If-Match), deletes and reads of desired LRPs fit one sequential
 * {@link DesiredRegister}. A call without an answer (no status, a timeout, a 5xx) may have taken effect at any moment
 * after it was made, or never. Hostile requests are not part of the history: if one changed anything, a later read
 * shows a value no call explains.
 */
public final class DesiredLinearizable {

    public static final String NAME = "linearizable";
    private static final DesiredRegister MODEL = new DesiredRegister();

    private DesiredLinearizable() {
    }

    public static CheckResult check(History history) {
        return check(history, DesiredLinearizable::budget);
    }

    /** {@code budget}: how long the search may take per process guid before that key is reported as unknown. */
    public static CheckResult check(History history, Duration budget) {
        return check(history, operations -> budget);
    }

    /**
     * How long the search may take on one process guid's {@code operations}: 20 ms an operation, a minute at least. A
     * 30-minute run gives one key 9,000 operations and more, which the search took 90 s to decide on a busy
     * machine (seed 30731 with --compose).
     */
    static Duration budget(int operations) {
        return Duration.ofMillis(Math.max(60_000, 20L * operations));
    }

    private static CheckResult check(History history, IntFunction<Duration> budgets) {
        Map<String, List<Operation<Op, Out>>> byKey = operations(history);
        if (byKey.isEmpty()) {
            return CheckResult.skipped(NAME, "no desired LRP calls recorded");
        }
        List<Anomaly> anomalies = new ArrayList<>();
        int ops = 0;
        int unknown = 0;
        for (Map.Entry<String, List<Operation<Op, Out>>> key : byKey.entrySet()) {
            List<Operation<Op, Out>> operations = key.getValue();
            ops += operations.size();
            Duration budget = budgets.apply(operations.size());
            Linearizability.Result result = Linearizability.check(MODEL, operations, budget);
            if (result.verdict() == Linearizability.Verdict.UNKNOWN) {
                unknown++;
                anomalies.add(Anomaly.of(NAME, key.getKey(), 0, "search gave up after " + budget + " ("
                        + operations.size() + " operations): not shown linearizable"));
            } else if (!result.linearizable()) {
                anomalies.add(explain(key.getKey(), operations, result));
            }
        }
        return CheckResult.ran(NAME, anomalies, Map.of("process_guids", byKey.size(), "operations", ops,
                "undecided", unknown));
    }

    /** The operations of each process guid, in the order they were called. */
    static Map<String, List<Operation<Op, Out>>> operations(History history) {
        List<String> keys = history.meta().map(Entry.Meta::lrpKeys).orElse(List.of());
        Map<String, List<Operation<Op, Out>>> byKey = new TreeMap<>();
        for (Entry.Call call : history.calls(Kinds.DESIRE, Kinds.UPDATE, Kinds.UPDATE_IF_MATCH, Kinds.DELETE,
                Kinds.READ_DESIRED, Kinds.LIST_DESIRED)) {
            if (call.kind().equals(Kinds.LIST_DESIRED)) {
                listed(call, keys).forEach((key, op) -> byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(op));
                continue;
            }
            Operation<Op, Out> op = operation(call);
            if (op != null) {
                byKey.computeIfAbsent(call.key(), k -> new ArrayList<>()).add(op);
            }
        }
        return byKey;
    }

    static Operation<Op, Out> operation(Entry.Call call) {
        boolean unknown = !call.answered() || call.status() >= 500;
        Op op = switch (call.kind()) {
            case Kinds.DESIRE -> {
                JsonNode body = Json.tree(call.requestBody());
                yield new DesiredRegister.Create(body.path("instances").asInt(), text(body.get("annotation")));
            }
            case Kinds.UPDATE, Kinds.UPDATE_IF_MATCH -> {
                JsonNode body = Json.tree(call.requestBody());
                yield new DesiredRegister.Update(body.has("instances") ? body.get("instances").asInt() : null,
                        text(body.get("annotation")), call.ifMatch() == null ? null : tag(call.ifMatch()));
            }
            case Kinds.DELETE -> new DesiredRegister.Delete();
            default -> new DesiredRegister.Read();
        };
        if (unknown) {
            return op instanceof DesiredRegister.Read ? null
                    : new Operation<>(call.process(), op, Out.UNKNOWN, call.invoke(), Operation.NEVER);
        }
        Out out = outcome(op, call);
        return out == null ? null : new Operation<>(call.process(), op, out, call.invoke(), call.complete());
    }

    private static Out outcome(Op op, Entry.Call call) {
        int status = call.status();
        if (status == 404) {
            return op instanceof DesiredRegister.Create ? null : Out.NOT_FOUND;
        }
        if (status == 409) {
            return op instanceof DesiredRegister.Create ? Out.EXISTS
                    : op instanceof DesiredRegister.Update ? Out.CONFLICT : null;
        }
        if (op instanceof DesiredRegister.Read && status == 200) {
            return read(Json.tree(call.body()), call.etag());
        }
        if (status == 201 || status == 204) {
            return Out.ok(call.etag() == null ? new Tag(null, -1) : tag(call.etag()));
        }
        return null; // 400 and the like: refused, changes nothing, says nothing about the state
    }

    private static Map<String, Operation<Op, Out>> listed(Entry.Call call, List<String> keys) {
        Map<String, Operation<Op, Out>> ops = new LinkedHashMap<>();
        if (call.status() != 200) {
            return ops;
        }
        Map<String, JsonNode> found = new TreeMap<>();
        Json.tree(call.body()).forEach(d -> found.put(d.path("process_guid").asString(), d));
        for (String key : keys) {
            JsonNode d = found.get(key);
            ops.put(key, new Operation<>(call.process(), new DesiredRegister.Read(),
                    d == null ? Out.NOT_FOUND : read(d, null), call.invoke(), call.complete()));
        }
        return ops;
    }

    private static Out read(JsonNode desired, String etag) {
        Tag tag = etag != null ? tag(etag) : new Tag(desired.path("modification_tag").path("epoch").asString(),
                desired.path("modification_tag").path("index").asLong());
        return Out.read(tag, desired.path("instances").asInt(), text(desired.get("annotation")));
    }

    /** {@code "<epoch>:<index>"}, as the ETag and If-Match carry it. */
    static Tag tag(String etag) {
        String bare = etag.replace("\"", "").replace("W/", "").trim();
        int colon = bare.lastIndexOf(':');
        return new Tag(bare.substring(0, colon), Long.parseLong(bare.substring(colon + 1)));
    }

    private static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.asString();
    }

    private static Anomaly explain(String key, List<Operation<Op, Out>> ops, Linearizability.Result result) {
        List<String> excerpt = new ArrayList<>();
        excerpt.add("linearized " + result.longest().size() + " of " + ops.size() + " operations; the last of them:");
        List<Integer> longest = result.longest();
        for (int i = Math.max(0, longest.size() - 8); i < longest.size(); i++) {
            excerpt.add("  " + describe(ops.get(longest.get(i))));
        }
        long at = 0;
        if (result.stuckAt() >= 0) {
            Operation<Op, Out> stuck = ops.get(result.stuckAt());
            at = stuck.ret() == Operation.NEVER ? stuck.call() : stuck.ret();
            excerpt.add("then no order places: " + describe(stuck));
            for (Operation<Op, Out> other : ops) {
                if (other != stuck && other.call() <= stuck.ret() && other.ret() >= stuck.call()
                        && !longest.contains(ops.indexOf(other))) {
                    excerpt.add("  concurrent with it: " + describe(other));
                }
            }
        }
        return new Anomaly(NAME, key, at, "no sequential order of the desired LRP's calls explains what they returned",
                excerpt.subList(0, Math.min(excerpt.size(), 30)));
    }

    private static String describe(Operation<Op, Out> op) {
        return String.format("%s [%.3fs, %s] %s -> %s", op.client(), op.call() / 1e6,
                op.ret() == Operation.NEVER ? "never" : String.format("%.3fs", op.ret() / 1e6), op.input(),
                op.output());
    }
}
