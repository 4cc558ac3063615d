package io.drover.model.read;

import io.drover.model.json.Json;
import io.drover.model.lrp.ActualLrpKey;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Where the instances of an index that are gone ran, read back from the audit trail: every change of an actual LRP is
 * an {@code lrp_events} row whose payload carries the instance before and after it, so the newest rows of an index
 * (an index scan of {@code lrp_events_entity_idx}) name the incarnation before the current one, and its cell. Kept as
 * long as the audit trail is ({@code drover.converger.event-retention}).
 */
public class PreviousInstances {

    /** How many of an index's newest changes are looked at. */
    static final int LOOK_BACK = 50;

    private final JdbcTemplate jdbc;

    public PreviousInstances(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** An incarnation of an index that is gone: its cell, its instance guid, and when its last change was. */
    public record Ended(String cellId, String instanceGuid, Instant at) {
    }

    /**
     * The newest incarnation of {@code key} on a cell other than {@code current} (the instance guid it has now, null
     * when none): the one that crashed, stopped or was replaced last.
     */
    public Optional<Ended> before(ActualLrpKey key, String current) {
        List<Ended> owners = jdbc.query("SELECT payload, at FROM lrp_events WHERE process_guid = ? "
                + "AND instance_index = ? AND entity = 'actual' AND payload IS NOT NULL ORDER BY id DESC LIMIT ?",
                (rs, i) -> owner(rs.getBytes(1), rs.getTimestamp(2)), key.processGuid(), key.index(), LOOK_BACK);
        return owners.stream().filter(o -> o != null && !o.instanceGuid().equals(current)).findFirst();
    }

    /** The instance a change's {@code before} names, on its cell; null when it names none. */
    private static Ended owner(byte[] payload, Timestamp at) {
        JsonNode before = Json.tree(new String(payload, StandardCharsets.UTF_8)).path("before");
        String instanceGuid = text(before.path("instance_guid"));
        String cellId = text(before.path("cell_id"));
        return instanceGuid == null || cellId == null ? null : new Ended(cellId, instanceGuid, at.toInstant());
    }

    private static String text(JsonNode node) {
        return node.isMissingNode() || node.isNull() || node.asString().isEmpty() ? null : node.asString();
    }
}
