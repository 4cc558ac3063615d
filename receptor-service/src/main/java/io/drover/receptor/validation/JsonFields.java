package io.drover.receptor.validation;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/**
 * Reads the fields of one JSON object and collects the path of every field that is missing, of the wrong type or out
 * of range, so a request is answered with all of its mistakes at once. A JSON {@code null} counts as absent. No string
 * may contain NUL (PostgreSQL cannot store it and no process can take it as an argument).
 */
public final class JsonFields {

    private final JsonNode node;
    private final String prefix;
    private final List<String> errors;

    public JsonFields(JsonNode node, String prefix, List<String> errors) {
        this.node = node;
        this.prefix = prefix;
        this.errors = errors;
    }

    public String path(String name) {
        return prefix.isEmpty() ? name : prefix + "." + name;
    }

    public void invalid(String name) {
        errors.add(path(name));
    }

    /** This object itself is invalid (not one of its fields): named by its own path. */
    public void invalidSelf() {
        errors.add(prefix);
    }

    /** The path of this object ({@code action.serial.actions[1]}). */
    public String prefix() {
        return prefix;
    }

    public boolean has(String name) {
        JsonNode value = node.get(name);
        return value != null && !value.isNull();
    }

    public JsonNode get(String name) {
        return has(name) ? node.get(name) : null;
    }

    /** Every property not in {@code known} is an error: a typo must not be silently ignored. */
    public void rejectUnknown(Set<String> known) {
        for (String name : node.propertyNames()) {
            if (!known.contains(name)) {
                invalid(name);
            }
        }
    }

    public String string(String name, boolean required, int maxBytes, Predicate<String> rule) {
        JsonNode value = get(name);
        if (value == null) {
            if (required) {
                invalid(name);
            }
            return null;
        }
        if (!isValidString(value, maxBytes) || !rule.test(value.stringValue())) {
            invalid(name);
            return null;
        }
        return value.stringValue();
    }

    public Integer integer(String name, boolean required, long min, long max) {
        JsonNode value = get(name);
        if (value == null) {
            if (required) {
                invalid(name);
            }
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < min
                || value.longValue() > max) {
            invalid(name);
            return null;
        }
        return (int) value.longValue();
    }

    public int integer(String name, long min, long max, int absent) {
        Integer value = integer(name, false, min, max);
        return value == null ? absent : value;
    }

    public List<String> strings(String name, int maxBytes, Predicate<String> rule) {
        JsonNode value = get(name);
        if (value == null) {
            return List.of();
        }
        List<String> result = new ArrayList<>();
        if (!value.isArray()) {
            invalid(name);
            return result;
        }
        for (JsonNode item : value) {
            if (!isValidString(item, maxBytes) || !rule.test(item.stringValue())) {
                invalid(name);
                return List.of();
            }
            result.add(item.stringValue());
        }
        return result;
    }

    /** A list of distinct integers in range. */
    public List<Integer> integers(String name, int min, int max) {
        JsonNode value = get(name);
        if (value == null) {
            return List.of();
        }
        List<Integer> result = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        if (!value.isArray()) {
            invalid(name);
            return result;
        }
        for (JsonNode item : value) {
            if (!item.isIntegralNumber() || !item.canConvertToInt() || item.intValue() < min || item.intValue() > max
                    || !seen.add(item.intValue())) {
                invalid(name);
                return List.of();
            }
            result.add(item.intValue());
        }
        return result;
    }

    /** The nested object, or null (recording an error when it is required or not an object). */
    public JsonFields object(String name, boolean required) {
        JsonNode value = get(name);
        if (value == null && required || value != null && !value.isObject()) {
            invalid(name);
            return null;
        }
        return value == null ? null : new JsonFields(value, path(name), errors);
    }

    /** Items of an array of objects, each with its indexed path ({@code env[2]}). */
    public List<JsonFields> objects(String name) {
        JsonNode value = get(name);
        if (value == null) {
            return List.of();
        }
        if (!value.isArray()) {
            invalid(name);
            return List.of();
        }
        List<JsonFields> items = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            JsonNode item = value.get(i);
            if (!item.isObject()) {
                errors.add(path(name) + "[" + i + "]");
            } else {
                items.add(new JsonFields(item, path(name) + "[" + i + "]", errors));
            }
        }
        return items;
    }

    private static boolean isValidString(JsonNode value, int maxBytes) {
        if (!value.isString()) {
            return false;
        }
        String s = value.stringValue();
        return s.indexOf('\0') < 0 && (s.length() <= maxBytes
                && s.getBytes(StandardCharsets.UTF_8).length <= maxBytes);
    }
}
