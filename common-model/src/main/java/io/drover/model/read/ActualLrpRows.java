package io.drover.model.read;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Actual LRPs as the API shows them, read with plain JDBC (no entity, no persistence context): one instance, the
 * instances of one process, and pages of every instance (or of one domain) in key order. Pages are keyset pages: the
 * next one starts after the last key of the previous one, so a long listing never holds more than a page in memory and
 * never repeats an instance. Every query is an index scan.
 *
 * <p>The evacuating twins of draining cells (SPEC 8.5) are listed beside their slots' records, after them, with
 * {@code evacuating: true}, as Diego lists both records of a slot: a client that follows the list never loses an
 * address that still serves. A page carries the twins of the keys it covers.
 */
public class ActualLrpRows {

    static final String COLUMNS = "process_guid, instance_index, domain, state, instance_guid, cell_id, address, "
            + "ports, crash_count, crash_reason, placement_error, floor(extract(epoch FROM since) * 1000)::bigint, "
            + "epoch, version, false, definition_version";
    /** An evacuating twin in the columns of {@link #COLUMNS}: always RUNNING, never placed. */
    static final String TWIN_COLUMNS = "process_guid, instance_index, domain, 'RUNNING', instance_guid, cell_id, "
            + "address, ports, crash_count, crash_reason, NULL, floor(extract(epoch FROM since) * 1000)::bigint, "
            + "epoch, version, true, definition_version";
    private static final String ORDER = " ORDER BY process_guid, instance_index";
    /**
     * The twins clients see: not one asked to stop (it only ever served an instance being replaced, and leaves the
     * listing when it is asked to stop, though its row and its container last until its cell has stopped it).
     */
    private static final String LISTED = "stop_requested IS NULL";
    private static final String ORDER_BOTH = " ORDER BY 1, 2, 15";
    private static final String AFTER = "(process_guid, instance_index) > (?, ?)";
    private static final Comparator<ActualLrpKey> KEY_ORDER = Comparator.comparing(ActualLrpKey::processGuid)
            .thenComparingInt(ActualLrpKey::index);

    private final JdbcTemplate jdbc;

    public ActualLrpRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * One instance slot, if it has a record: the slot's record while it runs (or when there is no twin), else the
     * evacuating twin that still serves it (Diego's resolution of a slot's two records).
     */
    public Optional<ActualLrpRow> find(ActualLrpKey key) {
        List<ActualLrpRow> both = jdbc.query("SELECT " + COLUMNS + " FROM actual_lrps WHERE process_guid = ? AND "
                + "instance_index = ? UNION ALL SELECT " + TWIN_COLUMNS + " FROM evacuating_lrps WHERE process_guid = ? "
                + "AND instance_index = ? AND " + LISTED + ORDER_BOTH, ActualLrpRows::map, key.processGuid(), key.index(),
                key.processGuid(), key.index());
        if (both.size() == 2 && both.get(0).state() != ActualLrpState.RUNNING) {
            return Optional.of(both.get(1));
        }
        return both.stream().findFirst();
    }

    /** The instances of one process, by index, each twin after its slot's record (at most 10,000 slots). */
    public List<ActualLrpRow> ofProcess(String processGuid) {
        return jdbc.query("SELECT " + COLUMNS + " FROM actual_lrps WHERE process_guid = ? UNION ALL SELECT "
                + TWIN_COLUMNS + " FROM evacuating_lrps WHERE process_guid = ? AND " + LISTED + ORDER_BOTH,
                ActualLrpRows::map,
                processGuid, processGuid);
    }

    /**
     * Up to {@code limit} instances in key order ({@code process_guid}, then index), of one domain or of all when
     * {@code domain} is null, starting after {@code after} (from the start when null).
     */
    public List<ActualLrpRow> page(String domain, ActualLrpKey after, int limit) {
        List<Object> args = new ArrayList<>();
        List<String> where = new ArrayList<>();
        if (domain != null) {
            where.add("domain = ?");
            args.add(domain);
        }
        if (after != null) {
            where.add(AFTER);
            args.add(after.processGuid());
            args.add(after.index());
        }
        args.add(limit);
        String filter = where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where);
        return jdbc.query("SELECT " + COLUMNS + " FROM actual_lrps" + filter + ORDER + " LIMIT ?",
                ActualLrpRows::map, args.toArray());
    }

    /**
     * A page of {@link #page} with the evacuating twins of the keys it covers, each after its slot's record: those after
     * {@code after} (from the start when null) up to the page's last key, or to the end when {@code last}.
     */
    public List<ActualLrpRow> withTwins(String domain, ActualLrpKey after, List<ActualLrpRow> rows, boolean last) {
        List<Object> args = new ArrayList<>();
        List<String> twinWhere = new ArrayList<>(List.of(LISTED));
        if (domain != null) {
            twinWhere.add("domain = ?");
            args.add(domain);
        }
        if (after != null) {
            twinWhere.add(AFTER);
            args.add(after.processGuid());
            args.add(after.index());
        }
        if (!last && !rows.isEmpty()) {
            ActualLrpKey upTo = rows.get(rows.size() - 1).key();
            twinWhere.add("(process_guid, instance_index) <= (?, ?)");
            args.add(upTo.processGuid());
            args.add(upTo.index());
        }
        String filter = " WHERE " + String.join(" AND ", twinWhere);
        List<ActualLrpRow> twins = jdbc.query("SELECT " + TWIN_COLUMNS + " FROM evacuating_lrps" + filter + ORDER,
                ActualLrpRows::map, args.toArray());
        if (twins.isEmpty()) {
            return rows;
        }
        List<ActualLrpRow> merged = new ArrayList<>(rows.size() + twins.size());
        int t = 0;
        for (ActualLrpRow row : rows) {
            while (t < twins.size() && KEY_ORDER.compare(twins.get(t).key(), row.key()) < 0) {
                merged.add(twins.get(t++));
            }
            merged.add(row);
            while (t < twins.size() && twins.get(t).key().equals(row.key())) {
                merged.add(twins.get(t++));
            }
        }
        merged.addAll(twins.subList(t, twins.size()));
        return merged;
    }


    /** The fingerprint of every instance, or of one domain's: one aggregate, no row leaves the database. */
    public ListFingerprint fingerprint(String domain) {
        String filter = domain == null ? "" : " WHERE domain = ?";
        String twinFilter = domain == null ? " WHERE " + LISTED : " WHERE domain = ? AND " + LISTED;
        String sql = "SELECT count(*), coalesce(sum(h), 0)::text FROM (SELECT hashtextextended(process_guid || '.' || "
                + "instance_index || '.' || epoch || '.' || version, 0) AS h FROM actual_lrps" + filter + " UNION ALL "
                + "SELECT hashtextextended('e.' || process_guid || '.' || instance_index || '.' || epoch || '.' || "
                + "version, 0) FROM evacuating_lrps" + twinFilter + ") AS rows";
        return domain == null ? jdbc.queryForObject(sql, ActualLrpRows::fingerprint)
                : jdbc.queryForObject(sql, ActualLrpRows::fingerprint, domain, domain);
    }

    static ListFingerprint fingerprint(ResultSet rs, int row) throws SQLException {
        return new ListFingerprint(rs.getLong(1), rs.getString(2));
    }

    private static ActualLrpRow map(ResultSet rs, int row) throws SQLException {
        return new ActualLrpRow(rs.getString(1), rs.getInt(2), rs.getString(3), ActualLrpState.valueOf(rs.getString(4)),
                rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8), rs.getInt(9), rs.getString(10),
                rs.getString(11), rs.getLong(12), UUID.fromString(rs.getString(13)), rs.getLong(14), rs.getBoolean(15),
                rs.getInt(16));
    }
}
