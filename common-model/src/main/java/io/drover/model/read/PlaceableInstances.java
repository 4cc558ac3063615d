package io.drover.model.read;

import io.drover.model.json.Json;
import io.drover.model.lrp.ActualLrpKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import tools.jackson.core.type.TypeReference;

/**
 * Of the instances an auction was asked for, those it may place, with what they need: still UNCLAIMED, still desired
 * (index below the desired instance count) and with no placement in flight; anything else was handled since the request
 * was sent (the tasks' counterpart is {@code TaskReads.placeable}).
 */
public class PlaceableInstances {

    /** Keys per query: large enough to be few round trips, small enough for PostgreSQL to plan well. */
    private static final int KEYS_PER_QUERY = 5_000;

    /**
     * Each key is looked up by the primary keys of both tables, one key after the other, whatever PostgreSQL believes
     * of their sizes: {@code OFFSET 0} keeps each {@code LATERAL} subquery from being flattened into a join the planner
     * may reorder. As a plain three-way join the planner could (and on this machine did) read every UNCLAIMED row into
     * a hash once per round, or, on the generic plan a prepared statement switches to, scan every instance of an LRP
     * below its desired count once per key: 116 and 31 ms for a round of 5,000 keys of one LRP of 10,000 instances,
     * against 43 ms in this shape in both plans (docs/performance.md, "A burst into a table believed empty").
     */
    private static final String PLACEABLE = """
            SELECT k.process_guid, k.instance_index, d.memory_mb, d.disk_mb, d.rootfs, d.placement_tags
            FROM unnest(?::varchar[], ?::int[]) AS k(process_guid, instance_index)
            CROSS JOIN LATERAL (
                SELECT 1 FROM actual_lrps a
                WHERE a.process_guid = k.process_guid AND a.instance_index = k.instance_index
                  AND a.state = 'UNCLAIMED' AND a.placed_cell_id IS NULL
                OFFSET 0) a
            CROSS JOIN LATERAL (
                SELECT d.memory_mb, d.disk_mb, d.rootfs, d.placement_tags
                FROM desired_lrps d
                WHERE d.process_guid = k.process_guid AND k.instance_index < d.instances
                OFFSET 0) d""";

    private static final TypeReference<List<String>> TAGS = new TypeReference<>() {
    };

    private final JdbcTemplate jdbc;

    public PlaceableInstances(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The placeable ones of {@code keys}, in no particular order. */
    public List<Placeable> of(List<ActualLrpKey> keys) {
        List<Placeable> placeable = new ArrayList<>(keys.size());
        Map<String, Set<String>> tagsByJson = new HashMap<>();
        for (int from = 0; from < keys.size(); from += KEYS_PER_QUERY) {
            List<ActualLrpKey> chunk = keys.subList(from, Math.min(keys.size(), from + KEYS_PER_QUERY));
            jdbc.query(con -> {
                var ps = con.prepareStatement(PLACEABLE);
                ps.setArray(1, con.createArrayOf("varchar", chunk.stream().map(ActualLrpKey::processGuid).toArray()));
                ps.setArray(2, con.createArrayOf("int4", chunk.stream().map(ActualLrpKey::index).toArray()));
                return ps;
            }, (RowCallbackHandler) rs -> placeable.add(new Placeable(ActualLrpKey.of(rs.getString(1), rs.getInt(2)),
                    rs.getInt(3), rs.getInt(4), rs.getString(5),
                    tagsByJson.computeIfAbsent(rs.getString(6), PlaceableInstances::tags))));
        }
        return placeable;
    }

    private static Set<String> tags(String json) {
        return json == null ? Set.of() : Set.copyOf(Json.read(json, TAGS));
    }

    /** An instance an auction may place, with what its desired LRP needs of a cell. */
    public record Placeable(ActualLrpKey key, int memoryMb, int diskMb, String rootfs, Set<String> placementTags) {
    }
}
