package io.drover.router.table;

import io.drover.model.lrp.ActualLrpState;
import java.util.Map;
import java.util.UUID;

/** What the router is told, by an event on Kafka or by the read model: a change to apply to its {@link RoutingState}. */
public sealed interface Seen {

    /** A desired LRP as an event or the read model shows it: its routes document (JSON text, may be null). */
    record Lrp(String processGuid, String routesJson, UUID epoch, long version) {
    }

    /**
     * A record ({@code evacuating} false) or a twin of an instance slot; {@code hostPorts} maps container ports to the
     * host ports they are published on (empty until it runs).
     */
    record Row(String processGuid, int index, boolean evacuating, ActualLrpState state, String instanceGuid,
            String address, Map<Integer, Integer> hostPorts, UUID epoch, long version) {

        public Row {
            hostPorts = Map.copyOf(hostPorts);
        }

        RowKey key() {
            return new RowKey(index, evacuating);
        }
    }

    /** A desired LRP created or changed ({@code before} null for a creation) or removed ({@code after} null). */
    record DesiredChange(Lrp before, Lrp after) implements Seen {
    }

    /** A record or twin created, changed or removed, as {@link DesiredChange}. */
    record ActualChange(Row before, Row after) implements Seen {
    }

    /** A cell was asked to stop an instance: it leaves every route now, before the cell stops it. */
    record StopRequested(String processGuid, String instanceGuid) implements Seen {
    }

    /** Which row of a slot: the record or its twin. */
    record RowKey(int index, boolean evacuating) {
    }
}
