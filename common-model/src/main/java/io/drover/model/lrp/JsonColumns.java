package io.drover.model.lrp;

import io.drover.model.json.Json;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import java.util.List;
import tools.jackson.core.type.TypeReference;

/** JSON-in-a-text-column converters for the structured fields of a desired LRP. */
final class JsonColumns {

    private JsonColumns() {
    }

    abstract static class JsonConverter<T> implements AttributeConverter<T, String> {
        private final TypeReference<T> type;

        JsonConverter(TypeReference<T> type) {
            this.type = type;
        }

        @Override
        public String convertToDatabaseColumn(T value) {
            return value == null ? null : Json.write(value);
        }

        @Override
        public T convertToEntityAttribute(String json) {
            return json == null ? null : Json.read(json, type);
        }
    }

    @Converter
    static class ActionConverter extends JsonConverter<Action> {
        ActionConverter() {
            super(new TypeReference<>() { });
        }
    }

    @Converter
    static class RunActionConverter extends JsonConverter<RunAction> {
        RunActionConverter() {
            super(new TypeReference<>() { });
        }
    }

    @Converter
    static class CheckDefinitionConverter extends JsonConverter<CheckDefinition> {
        CheckDefinitionConverter() {
            super(new TypeReference<>() { });
        }
    }

    @Converter
    static class EnvConverter extends JsonConverter<List<EnvVar>> {
        EnvConverter() {
            super(new TypeReference<>() { });
        }
    }

    @Converter
    static class IntListConverter extends JsonConverter<List<Integer>> {
        IntListConverter() {
            super(new TypeReference<>() { });
        }
    }

    @Converter
    static class StringListConverter extends JsonConverter<List<String>> {
        StringListConverter() {
            super(new TypeReference<>() { });
        }
    }
}
