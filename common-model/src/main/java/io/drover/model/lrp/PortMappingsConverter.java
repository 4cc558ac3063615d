package io.drover.model.lrp;

import io.drover.model.json.Json;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import java.util.List;
import tools.jackson.core.type.TypeReference;

/** Stores the port mappings of a running instance as a JSON array in a text column. */
@Converter
class PortMappingsConverter implements AttributeConverter<List<NetInfo.PortMapping>, String> {

    private static final TypeReference<List<NetInfo.PortMapping>> TYPE = new TypeReference<>() {
    };

    @Override
    public String convertToDatabaseColumn(List<NetInfo.PortMapping> ports) {
        return ports == null ? null : Json.write(ports);
    }

    @Override
    public List<NetInfo.PortMapping> convertToEntityAttribute(String json) {
        return json == null ? null : Json.read(json, TYPE);
    }
}
