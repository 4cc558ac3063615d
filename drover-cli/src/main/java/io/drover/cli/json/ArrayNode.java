package io.drover.cli.json;

import io.drover.cli.json.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** A JSON array. */
public final class ArrayNode extends JsonNode {

    private final List<JsonNode> elements = new ArrayList<>();

    ArrayNode() {
        super(Kind.ARRAY, null);
    }

    @Override
    public JsonNode path(int index) {
        return index >= 0 && index < elements.size() ? elements.get(index) : MISSING;
    }

    public ArrayNode add(JsonNode value) {
        elements.add(value == null ? NULL : value);
        return this;
    }

    public ArrayNode add(String value) {
        return add(value == null ? NULL : Json.text(value));
    }

    public ArrayNode add(long value) {
        return add(Json.number(value));
    }

    public ObjectNode addObject() {
        ObjectNode child = new ObjectNode();
        add(child);
        return child;
    }

    @Override
    public int size() {
        return elements.size();
    }

    @Override
    public Iterator<JsonNode> iterator() {
        return elements.iterator();
    }

    /** The elements as a list, for streams. */
    public List<JsonNode> elements() {
        return List.copyOf(elements);
    }

    @Override
    void write(StringBuilder out) {
        out.append('[');
        for (int i = 0; i < elements.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            elements.get(i).write(out);
        }
        out.append(']');
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ArrayNode node && node.elements.equals(elements);
    }

    @Override
    public int hashCode() {
        return elements.hashCode();
    }
}
