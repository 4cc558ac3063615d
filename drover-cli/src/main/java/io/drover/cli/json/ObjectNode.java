package io.drover.cli.json;

import io.drover.cli.json.Json;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** A JSON object: its fields in the order they came or were put. */
public final class ObjectNode extends JsonNode {

    private final Map<String, JsonNode> fields = new LinkedHashMap<>();

    ObjectNode() {
        super(Kind.OBJECT, null);
    }

    @Override
    public JsonNode path(String name) {
        return fields.getOrDefault(name, MISSING);
    }

    /** Sets a field; a null value is JSON {@code null}. */
    public ObjectNode set(String name, JsonNode value) {
        fields.put(name, value == null ? NULL : value);
        return this;
    }

    public ObjectNode put(String name, String value) {
        return set(name, value == null ? NULL : Json.text(value));
    }

    public ObjectNode put(String name, long value) {
        return set(name, Json.number(value));
    }

    public ObjectNode put(String name, boolean value) {
        return set(name, value ? TRUE : FALSE);
    }

    public ObjectNode putObject(String name) {
        ObjectNode child = new ObjectNode();
        set(name, child);
        return child;
    }

    public ArrayNode putArray(String name) {
        ArrayNode child = new ArrayNode();
        set(name, child);
        return child;
    }

    public JsonNode remove(String name) {
        return fields.remove(name);
    }

    @Override
    public int size() {
        return fields.size();
    }

    @Override
    public Iterator<JsonNode> iterator() {
        return fields.values().iterator();
    }

    @Override
    public Iterable<Map.Entry<String, JsonNode>> properties() {
        return fields.entrySet();
    }

    @Override
    void write(StringBuilder out) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, JsonNode> field : fields.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            quote(field.getKey(), out);
            out.append(':');
            field.getValue().write(out);
        }
        out.append('}');
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ObjectNode node && node.fields.equals(fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }
}
