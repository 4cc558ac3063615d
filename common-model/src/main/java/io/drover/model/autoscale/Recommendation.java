package io.drover.model.autoscale;

import io.drover.model.json.Json;
import java.time.Instant;
import java.util.List;
import tools.jackson.core.type.TypeReference;

/**
 * One tick's raw proposal for an LRP's size, before stabilisation: what the proportional rule said at {@code at}. The
 * autoscaler keeps the last few minutes of them (its stabilisation windows) in PostgreSQL, as
 * {@code [[epoch ms, instances], ...]}.
 */
public record Recommendation(Instant at, int instances) {

    private static final TypeReference<List<long[]>> PAIRS = new TypeReference<>() {
    };

    /** The proposals as stored, oldest first. */
    public static String toJson(List<Recommendation> recommendations) {
        StringBuilder json = new StringBuilder("[");
        for (Recommendation r : recommendations) {
            json.append(json.length() > 1 ? "," : "").append('[').append(r.at().toEpochMilli()).append(',')
                    .append(r.instances()).append(']');
        }
        return json.append(']').toString();
    }

    /** The stored proposals. */
    public static List<Recommendation> fromJson(String json) {
        return Json.read(json, PAIRS).stream()
                .map(p -> new Recommendation(Instant.ofEpochMilli(p[0]), (int) p[1])).toList();
    }
}
