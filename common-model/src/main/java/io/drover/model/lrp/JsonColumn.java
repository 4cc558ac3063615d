package io.drover.model.lrp;

import io.drover.model.json.Json;
import tools.jackson.core.type.TypeReference;

/** A structured field of a desired LRP kept as JSON in a text column ({@link Json}: snake_case); null stays null. */
final class JsonColumn<T> {

    private final TypeReference<T> type;

    JsonColumn(TypeReference<T> type) {
        this.type = type;
    }

    String write(T value) {
        return value == null ? null : Json.write(value);
    }

    T read(String json) {
        return json == null ? null : Json.read(json, type);
    }
}
