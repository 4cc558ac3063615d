package io.drover.model.cell;

import io.drover.model.json.Json;
import java.time.Instant;
import java.util.List;
import tools.jackson.core.type.TypeReference;

/**
 * A cell as stored: its registration, the state its rep reports, the operator's drain order (null: none) and its
 * presence. Read-only; {@link CellPresence} and {@link CellDrains} write.
 *
 * @param reported the state the cell's rep last wrote: ACTIVE, EVACUATING while it drains, DRAINED once an operator's
 *     drain is done
 * @param drain the operator's request that the cell drain (SPEC 18); null when there is none
 */
public record Cell(CellRegistration registration, CellState reported, DrainOrder drain, Instant heartbeatAt,
        Instant expiresAt, long version) {

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

    /**
     * The cell's state as operators see it: the operator's intent first, its rep's progress second. A cell ordered to
     * drain is EVACUATING until its rep says it is done (DRAINED), whatever its rep said before it heard of the order;
     * a cell with no order is EVACUATING while its rep drains on its own (SIGTERM, its admin port), ACTIVE otherwise,
     * including while a rep that has not heard of an undrain yet still says DRAINED (it takes work again as soon as
     * work arrives: it reads the order again first).
     */
    public CellState state() {
        if (drain != null) {
            return reported == CellState.DRAINED ? CellState.DRAINED : CellState.EVACUATING;
        }
        return reported == CellState.EVACUATING ? CellState.EVACUATING : CellState.ACTIVE;
    }

    /** Takes work: present and ACTIVE (see {@link #state()}; the same rule as {@code LiveCells.schedulable}). */
    public boolean isSchedulable(Instant now) {
        return isLive(now) && state() == CellState.ACTIVE;
    }

    static List<String> strings(String json) {
        return json == null ? List.of() : Json.read(json, STRINGS);
    }
}
