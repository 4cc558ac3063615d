package io.drover.model.json;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * Drover's wire format: snake_case property names, unknown properties ignored (adding a field to a contract is a
 * compatible change), instants as ISO-8601 strings. Used for Kafka payloads and JSON-valued columns, so that neither
 * depends on how a service happens to configure its web layer.
 */
public final class Json {

    public static final JsonMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private Json() {
    }

    public static String write(Object value) {
        return MAPPER.writeValueAsString(value);
    }

    /** UTF-8 JSON of a value that writes itself: the bytes {@link #write} would make a string of, without reflection. */
    public static byte[] bytes(JsonWritable value) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(1_024);
        try (tools.jackson.core.JsonGenerator json = MAPPER.createGenerator(out)) {
            value.writeJson(json);
        }
        return out.toByteArray();
    }

    public static <T> T read(String json, Class<T> type) {
        return MAPPER.readValue(json, type);
    }

    /** Reads UTF-8 JSON bytes, e.g. a Kafka record's value, without making a string of them first. */
    public static <T> T read(byte[] json, Class<T> type) {
        return MAPPER.readValue(json, type);
    }

    public static <T> T read(String json, TypeReference<T> type) {
        return MAPPER.readValue(json, type);
    }

    public static JsonNode tree(String json) {
        return MAPPER.readTree(json);
    }

    public static JsonNode toTree(Object value) {
        return MAPPER.valueToTree(value);
    }
}
