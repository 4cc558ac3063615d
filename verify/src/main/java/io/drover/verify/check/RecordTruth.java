package io.drover.verify.check;

import io.drover.model.json.Json;
import io.drover.verify.history.Entry;
import io.drover.verify.history.History;
import io.drover.verify.history.Kinds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Check 3, the record tells the truth: every instance that answers at the address its RUNNING record lists reports
 * the instance guid and the definition version that record states (its label stands for one version of its LRP). A
 * probe is judged only when the prober's listings just before and just after it show the same record (same instance
 * guid, same modification tag): the record then stood for the whole probe, so no race explains a difference.
 */
public final class RecordTruth {

    public static final String NAME = "record-truth";

    private RecordTruth() {
    }

    public static CheckResult check(History history) {
        List<Entry.Probe> probes = history.all(Entry.Probe.class).filter(p -> p.target().equals("listed")).toList();
        if (probes.isEmpty()) {
            return CheckResult.skipped(NAME, "no listed instance probed");
        }
        Labels labels = Labels.of(history);
        Map<String, List<Entry.Call>> listings = new HashMap<>();
        for (Entry.Call c : history.calls(Kinds.LIST_ACTUALS)) {
            if (c.status() == 200 && c.round() >= 0) {
                listings.computeIfAbsent(c.key(), k -> new ArrayList<>()).add(c);
            }
        }
        List<Anomaly> anomalies = new ArrayList<>();
        int judged = 0;
        for (Entry.Probe p : probes) {
            if (p.answer() == null || p.answer().isNull()) {
                continue;
            }
            JsonNode before = record(listingOf(listings, p.processGuid(), p.round()), p);
            JsonNode after = record(listingOf(listings, p.processGuid(), p.round() + 1), p);
            if (before == null || after == null || !before.path("modification_tag").equals(after.path("modification_tag"))
                    || !"RUNNING".equals(before.path("state").asString())) {
                continue;
            }
            judged++;
            String lie = lie(before, p.answer(), labels);
            if (lie != null) {
                anomalies.add(Anomaly.of(NAME, p.processGuid() + "/" + p.index(), p.complete(), lie,
                        "record: " + before, "answer at " + p.address() + ": " + p.answer()));
            }
        }
        return CheckResult.ran(NAME, anomalies, Map.of("probes_judged", judged));
    }

    /** What the answer contradicts in the record, or null. */
    static String lie(JsonNode record, JsonNode answer, Labels labels) {
        if (!record.path("instance_guid").asString().equals(answer.path("instance_guid").asString())) {
            return "the record states instance " + record.path("instance_guid").asString() + ", instance "
                    + answer.path("instance_guid").asString() + " answers at its address";
        }
        if (!record.path("process_guid").asString().equals(answer.path("process_guid").asString())
                || record.path("index").asInt() != answer.path("index").asInt()) {
            return "the record is index " + record.path("index").asInt() + " of " + record.path("process_guid")
                    .asString() + ", the answer " + answer.path("index").asInt() + " of "
                    + answer.path("process_guid").asString();
        }
        int stated = record.path("definition_version").asInt();
        return labels.definition(answer.path("label").asString())
                .filter(d -> d.processGuid().equals(answer.path("process_guid").asString()) && d.version() != stated)
                .map(d -> "the record states definition version " + stated + ", the instance runs version "
                        + d.version() + " (label " + answer.path("label").asString() + ")")
                .orElse(null);
    }

    private static Entry.Call listingOf(Map<String, List<Entry.Call>> listings, String guid, int round) {
        return listings.getOrDefault(guid, List.of()).stream().filter(c -> c.round() == round).findFirst()
                .orElse(null);
    }

    private static JsonNode record(Entry.Call listing, Entry.Probe p) {
        if (listing == null) {
            return null;
        }
        for (JsonNode a : Json.tree(listing.body())) {
            if (a.path("index").asInt() == p.index() && a.path("evacuating").asBoolean() == p.evacuating()
                    && a.path("instance_guid").asString().equals(p.instanceGuid())) {
                return a;
            }
        }
        return null;
    }
}
