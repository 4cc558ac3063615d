package io.drover.model.json;

import tools.jackson.core.JsonGenerator;

/**
 * A value that writes its own JSON, exactly what {@link Json#MAPPER} writes for it, without the mapper's reflection (a
 * method-handle call per property and a serializer looked up per value). Only for values written on a hot path: a
 * lifecycle event's snapshot is written four times per instance started. Each implementation has a test that its
 * bytes equal the mapper's.
 */
public interface JsonWritable {

    void writeJson(JsonGenerator json);
}
