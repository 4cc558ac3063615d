package io.drover.verify.check;

import io.drover.verify.history.Entry;
import io.drover.verify.history.History;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Check 6, events: on each event stream, per instance record (a slot's record, or its evacuating twin), every
 * {@code actual_lrp_*} event starts where the previous one ended (same state, owner and epoch, a version no older) and
 * makes a transition SPEC 3.2's table allows; after a removal the next is a creation; and on a stream opened before
 * the workload began, an instance's first event is its creation. So no event is missing between an instance's first
 * and last state, none is out of order. A crash is told twice (crashed, then changed): the chain follows the change.
 * A desired LRP's events chain the same way: a change or a removal continues the last event's LRP (its epoch, a
 * modification index no older), a creation follows a removal.
 * The SSE streams' ids ({@code EventPosition}s, fixed-width hexadecimal) must rise. The Kafka topic is one more
 * stream ({@code KafkaEventRecorder}, no ids: its order is per partition, and an instance's events share one).
 */
public final class Events {

    public static final String NAME = "events";

    private Events() {
    }

    public static CheckResult check(History history) {
        List<Entry.Event> events = history.all(Entry.Event.class).toList();
        if (events.isEmpty()) {
            return CheckResult.skipped(NAME, "no event stream recorded");
        }
        long workload = history.phase("workload").orElse(Long.MAX_VALUE);
        Set<Integer> fromTheStart = new HashSet<>();
        history.all(Entry.Stream.class).filter(s -> s.kind().equals("opened") && s.at() <= workload)
                .forEach(s -> fromTheStart.add(s.stream()));
        Set<String> keys = new HashSet<>(history.meta().map(Entry.Meta::lrpKeys).orElse(List.of()));
        Map<String, Entry.Event> last = new HashMap<>();
        Map<String, JsonNode> lastDesired = new HashMap<>();
        Map<Integer, String> lastId = new HashMap<>();
        List<Anomaly> anomalies = new ArrayList<>();
        Set<String> broken = new HashSet<>();
        Set<String> delivered = new HashSet<>();
        int judged = 0;
        int judgedDesired = 0;
        int repeated = 0;
        for (Entry.Event e : events) {
            String id = e.id();
            String previousId = id == null ? null : lastId.put(e.stream(), id);
            if (id != null && previousId != null && id.compareTo(previousId) <= 0) {
                anomalies.add(Anomaly.of(NAME, "stream " + e.stream(), e.received(), "event id " + id
                        + " after " + previousId));
            }
            boolean ofDesired = e.name().startsWith("desired_lrp_");
            if (!ofDesired && (!e.name().startsWith("actual_lrp_") || e.name().equals("actual_lrp_crashed"))) {
                continue;
            }
            if (!delivered.add(e.stream() + " " + e.name() + " " + e.data())) {
                repeated++; // the topic is at least once: a relay retry after an unacknowledged send repeats a row
                continue;
            }
            if (ofDesired) {
                judgedDesired += desired(e, lastDesired, broken, anomalies, fromTheStart.contains(e.stream()), keys)
                        ? 1 : 0;
                continue;
            }
            JsonNode before = e.data().get("actual_lrp_before");
            JsonNode after = e.data().get("actual_lrp_after");
            if (e.name().equals("actual_lrp_created")) {
                before = null;
                after = e.data().get("actual_lrp");
            } else if (e.name().equals("actual_lrp_removed")) {
                before = e.data().get("actual_lrp");
                after = null;
            }
            JsonNode any = before != null ? before : after;
            String key = e.stream() + ":" + any.path("process_guid").asString() + "/" + any.path("index").asInt()
                    + (any.path("evacuating").asBoolean() ? " (twin)" : "");
            if (broken.contains(key)) {
                continue;
            }
            judged++;
            Entry.Event previous = last.put(key, e);
            String wrong = previous == null
                    ? first(e, before, fromTheStart.contains(e.stream()) && keys.contains(any.path("process_guid")
                            .asString()))
                    : follows(previous, before);
            if (wrong == null && before != null && after != null) {
                wrong = AllowedTransitions.why(before, after);
            }
            if (wrong != null) {
                broken.add(key);
                anomalies.add(Anomaly.of(NAME, key.substring(key.indexOf(':') + 1), e.received(), wrong,
                        previous == null ? "(first event of this record on the stream)" : "previous: "
                                + previous.name() + " " + previous.data(), "this: " + e.name() + " " + e.data()));
            }
        }
        return CheckResult.ran(NAME, anomalies, Map.of("events", events.size(), "actual_events_judged", judged,
                "desired_events_judged", judgedDesired, "repeated", repeated));
    }

    /**
     * A desired LRP's life on one stream: created, changed any number of times, removed, then perhaps created again as
     * a new LRP (a new epoch). A change or a removal continues the last event's LRP (its epoch, a modification index no
     * older); a creation follows a removal. Judges {@code e}, records an anomaly if it does not follow; false when the
     * LRP's chain was broken before (judged no more).
     */
    private static boolean desired(Entry.Event e, Map<String, JsonNode> last, Set<String> broken,
            List<Anomaly> anomalies, boolean fromTheStart, Set<String> workloadKeys) {
        boolean creation = e.name().equals("desired_lrp_created");
        boolean removal = e.name().equals("desired_lrp_removed");
        JsonNode before = creation ? null : e.data().get(removal ? "desired_lrp" : "desired_lrp_before");
        JsonNode after = removal ? null : e.data().get(creation ? "desired_lrp" : "desired_lrp_after");
        JsonNode any = before != null ? before : after;
        if (any == null) {
            return false;
        }
        String guid = any.path("process_guid").asString();
        String key = e.stream() + ":desired " + guid;
        if (broken.contains(key)) {
            return false;
        }
        boolean seen = last.containsKey(key);
        JsonNode ended = last.get(key);
        last.put(key, after);
        String wrong = null;
        if (!seen) {
            if (before != null && fromTheStart && workloadKeys.contains(guid)) {
                wrong = "the first event of a desired LRP created after the stream opened is " + e.name()
                        + ": its creation is missing";
            }
        } else if (ended == null && before != null) {
            wrong = e.name() + " of a removed desired LRP: its creation is missing or out of order";
        } else if (ended != null && before == null) {
            wrong = "created again while its last event left it desired: its removal is missing or out of order";
        } else if (ended != null) {
            JsonNode was = ended.path("modification_tag");
            JsonNode is = before.path("modification_tag");
            if (!was.path("epoch").equals(is.path("epoch"))) {
                wrong = e.name() + " of epoch " + is.path("epoch").asString() + ", the last event left epoch "
                        + was.path("epoch").asString() + ": an event between them is missing or out of order";
            } else if (is.path("index").asLong() < was.path("index").asLong()) {
                wrong = e.name() + " from modification index " + is.path("index").asLong()
                        + ", older than the last event's " + was.path("index").asLong() + ": out of order";
            }
        }
        if (wrong != null) {
            broken.add(key);
            anomalies.add(Anomaly.of(NAME, "desired " + guid, e.received(), wrong, "this: " + e.name() + " "
                    + e.data()));
        }
        return true;
    }

    private static String first(Entry.Event e, JsonNode before, boolean mustBeCreation) {
        return mustBeCreation && before != null
                ? "the first event of an instance created after the stream opened is " + e.name()
                        + " from " + before.path("state").asString() + ": its creation is missing"
                : null;
    }

    /** Why {@code before} cannot follow the previous event's end, or null. */
    static String follows(Entry.Event previous, JsonNode before) {
        JsonNode ended = previous.name().equals("actual_lrp_removed") ? null
                : previous.name().equals("actual_lrp_created") ? previous.data().get("actual_lrp")
                : previous.data().get("actual_lrp_after");
        if (ended == null || ended.isNull()) {
            return before == null ? null : "a change of a removed record, from " + before.path("state").asString()
                    + ": its creation is missing";
        }
        if (before == null) {
            return "created again while its last event left it " + ended.path("state").asString()
                    + ": its removal is missing";
        }
        if (!ended.path("state").asString().equals(before.path("state").asString())
                || !Objects.equals(text(ended, "instance_guid"), text(before, "instance_guid"))
                || !ended.path("modification_tag").path("epoch").equals(before.path("modification_tag").path("epoch"))) {
            return "starts at " + before.path("state").asString() + " " + text(before, "instance_guid")
                    + ", the previous event ended at " + ended.path("state").asString() + " "
                    + text(ended, "instance_guid") + ": an event between them is missing or out of order";
        }
        if (before.path("modification_tag").path("index").asLong()
                < ended.path("modification_tag").path("index").asLong()) {
            return "starts at version " + before.path("modification_tag").path("index").asLong()
                    + ", older than the previous event's end: out of order";
        }
        return null;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }
}
