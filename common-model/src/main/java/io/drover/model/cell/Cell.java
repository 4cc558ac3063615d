package io.drover.model.cell;

import io.drover.model.json.Json;
import java.time.Instant;
import java.util.List;
import tools.jackson.core.type.TypeReference;

/** A cell as stored: its registration, state and presence. Read-only; {@link CellPresence} writes. */
public record Cell(CellRegistration registration, CellState state, Instant heartbeatAt, Instant expiresAt,
        long version) {

    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };

    public String cellId() {
        return registration.cellId();
    }

    public String zone() {
        return registration.zone();
    }

    public Resources capacity() {
        return registration.capacity();
    }

    public boolean isLive(Instant now) {
        return expiresAt.isAfter(now);
    }

    /** Takes work: present and not evacuating. */
    public boolean isSchedulable(Instant now) {
        return isLive(now) && state == CellState.ACTIVE;
    }

    static List<String> strings(String json) {
        return json == null ? List.of() : Json.read(json, STRINGS);
    }
}
