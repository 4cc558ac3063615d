package io.drover.verify.check;

import static io.drover.verify.check.Calls.ms;

import io.drover.model.json.Json;
import io.drover.verify.history.Entry;
import io.drover.verify.history.Kinds;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** Probes, listings, events and snapshots for the checks' tables. Times in milliseconds of the run. */
final class Fixtures {

    static final Entry.Timings TIMINGS = new Entry.Timings(10, 3, 2, 60, 1);

    private Fixtures() {
    }

    static Entry.Meta meta(String... keys) {
        return new Entry.Meta("run", 17, 1_000_000, "test", List.of(keys), TIMINGS);
    }

    /** An actual LRP as the API lists it. */
    static String actual(String guid, int index, String instance, String cell, String state, int version,
            boolean evacuating, long tagIndex) {
        return """
                {"process_guid": "%s", "index": %d, "instance_guid": %s, "cell_id": %s, "address": "127.0.0.1",
                 "ports": [{"container_port": 8080, "host_port": 61000}], "state": "%s", "definition_version": %d,
                 "evacuating": %s, "modification_tag": {"epoch": "e-%s-%d", "index": %d}}""".formatted(guid, index,
                instance == null ? "null" : "\"" + instance + "\"", cell == null ? "null" : "\"" + cell + "\"", state,
                version, evacuating, guid, index, tagIndex);
    }

    static Entry.Call listing(String guid, int round, double at, String... actuals) {
        return new Entry.Call("prober", Kinds.LIST_ACTUALS, guid, "GET", "/v1/actual_lrps/" + guid, null, null, ms(at),
                ms(at + 5), 200, null, "[" + String.join(",", actuals) + "]", null, round);
    }

    static Entry.Call cells(double at, String... cells) {
        List<String> json = new ArrayList<>();
        for (String c : cells) {
            json.add("{\"cell_id\": \"" + c + "\", \"state\": \"ACTIVE\"}");
        }
        return new Entry.Call("prober", Kinds.LIST_CELLS, "cells", "GET", "/v1/cells", null, null, ms(at), ms(at + 5),
                200, null, "[" + String.join(",", json) + "]", null, -1);
    }

    static JsonNode answer(String guid, int index, String instance, String label) {
        return Json.tree("{\"process_guid\": \"" + guid + "\", \"index\": " + index + ", \"instance_guid\": \""
                + instance + "\", \"label\": \"" + label + "\"}");
    }

    static Entry.Probe processProbe(int round, double at, String cell, JsonNode answer) {
        return new Entry.Probe(round, "process", answer.path("process_guid").asString(), answer.path("index").asInt(),
                "127.0.0.1:61000", 100, cell, answer.path("instance_guid").asString(), false, ms(at), ms(at + 2),
                answer, null);
    }

    static Entry.Probe listedProbe(int round, double at, String guid, int index, String listedInstance,
            boolean evacuating, JsonNode answer) {
        return new Entry.Probe(round, "listed", guid, index, "127.0.0.1:61000", -1, null, listedInstance, evacuating,
                ms(at), ms(at + 2), answer, null);
    }

    static Entry.Fault fault(String kind, String target, double start, double end) {
        return new Entry.Fault(kind, target, ms(start), ms(end), null);
    }

    static Entry.Event event(int stream, long id, String name, String data, double at) {
        // a Kafka stream's events have no id; an SSE stream's are EventPositions: (tx id, row id), fixed-width hex
        return new Entry.Event(stream, stream < 0 ? null : String.format("%016x-%016x", 1000 + id, id), name,
                Json.tree(data), ms(at));
    }

    static Entry.Event created(int stream, long id, String actual, double at) {
        return event(stream, id, "actual_lrp_created", "{\"actual_lrp\": " + actual + "}", at);
    }

    static Entry.Event changed(int stream, long id, String before, String after, double at) {
        return event(stream, id, "actual_lrp_changed", "{\"actual_lrp_before\": " + before + ", \"actual_lrp_after\": "
                + after + "}", at);
    }

    static Entry.Event removed(int stream, long id, String actual, double at) {
        return event(stream, id, "actual_lrp_removed", "{\"actual_lrp\": " + actual + "}", at);
    }
}
