package io.drover.cli.json;

import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * A JSON value. Reading never fails on a missing field: {@link #path} answers a missing node, whose
 * {@code asString()} is {@code ""} and {@code asInt()} 0, so formatting code reads as the JSON looks (the names follow
 * Jackson's, which the CLI used before). Objects and arrays are {@link ObjectNode} and {@link ArrayNode}.
 */
public class JsonNode implements Iterable<JsonNode> {

    enum Kind { STRING, NUMBER, BOOLEAN, NULL, MISSING, OBJECT, ARRAY }

    static final JsonNode NULL = new JsonNode(Kind.NULL, null);
    static final JsonNode MISSING = new JsonNode(Kind.MISSING, null);
    static final JsonNode TRUE = new JsonNode(Kind.BOOLEAN, "true");
    static final JsonNode FALSE = new JsonNode(Kind.BOOLEAN, "false");

    private final Kind kind;
    /** A string's value, a number's or boolean's text; null for the others. */
    private final String text;

    JsonNode(Kind kind, String text) {
        this.kind = kind;
        this.text = text;
    }

    /** The field {@code name} of an object; a missing node for anything else. */
    public JsonNode path(String name) {
        return MISSING;
    }

    /** Element {@code index} of an array; a missing node for anything else. */
    public JsonNode path(int index) {
        return MISSING;
    }

    /** The field, or null when there is none (as Jackson's {@code get}). */
    public JsonNode get(String name) {
        JsonNode found = path(name);
        return found.isMissingNode() ? null : found;
    }

    public JsonNode get(int index) {
        JsonNode found = path(index);
        return found.isMissingNode() ? null : found;
    }

    public boolean has(String name) {
        return !path(name).isMissingNode();
    }

    public boolean hasNonNull(String name) {
        JsonNode found = path(name);
        return !found.isMissingNode() && !found.isNull();
    }

    public boolean isObject() {
        return kind == Kind.OBJECT;
    }

    public boolean isArray() {
        return kind == Kind.ARRAY;
    }

    public boolean isString() {
        return kind == Kind.STRING;
    }

    public boolean isNumber() {
        return kind == Kind.NUMBER;
    }

    public boolean isBoolean() {
        return kind == Kind.BOOLEAN;
    }

    public boolean isNull() {
        return kind == Kind.NULL;
    }

    public boolean isMissingNode() {
        return kind == Kind.MISSING;
    }

    /** A string's value, a number's or boolean's text; {@code ""} for null, missing, objects and arrays. */
    public String asString() {
        return text == null ? "" : text;
    }

    /** {@link #asString()}, or {@code otherwise} when the value is missing or null. */
    public String asString(String otherwise) {
        return kind == Kind.MISSING || kind == Kind.NULL ? otherwise : asString();
    }

    public long asLong(long otherwise) {
        if (kind != Kind.NUMBER && kind != Kind.STRING) {
            return otherwise;
        }
        try {
            return text.contains(".") || text.contains("e") || text.contains("E") ? (long) Double.parseDouble(text)
                    : Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    public long asLong() {
        return asLong(0);
    }

    public int asInt(int otherwise) {
        return (int) asLong(otherwise);
    }

    public int asInt() {
        return asInt(0);
    }

    public boolean asBoolean() {
        return kind == Kind.BOOLEAN ? "true".equals(text) : kind == Kind.STRING && "true".equals(text);
    }

    /** Elements of an array, field names of an object: how many. */
    public int size() {
        return 0;
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    /** An array's elements or an object's values; nothing for the others. */
    @Override
    public Iterator<JsonNode> iterator() {
        return Collections.emptyIterator();
    }

    /** An object's fields in order; none for the others. */
    public Iterable<Map.Entry<String, JsonNode>> properties() {
        return Collections.emptyList();
    }

    /** Compact JSON. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        write(out);
        return out.toString();
    }

    void write(StringBuilder out) {
        switch (kind) {
            case STRING -> quote(text, out);
            case NUMBER, BOOLEAN -> out.append(text);
            default -> out.append("null");
        }
    }

    static void quote(String value, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof JsonNode node && node.kind == kind && Objects.equals(node.text, text);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, text);
    }
}
