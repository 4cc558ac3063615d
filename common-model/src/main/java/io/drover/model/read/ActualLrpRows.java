package io.drover.model.read;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Actual LRPs as the API shows them, read with plain JDBC (no entity, no persistence context): one instance, the
 * instances of one process, and pages of every instance (or of one domain) in key order. Pages are keyset pages: the
 * next one starts after the last key of the previous one, so a long listing never holds more than a page in memory and
 * never repeats an instance. Every query is an index scan.
 */
public class ActualLrpRows {

    static final String COLUMNS = "process_guid, instance_index, domain, state, instance_guid, cell_id, address, "
            + "ports, crash_count, crash_reason, placement_error, floor(extract(epoch FROM since) * 1000)::bigint, "
            + "epoch, version";
    private static final String ORDER = " ORDER BY process_guid, instance_index";
    private static final String AFTER = "(process_guid, instance_index) > (?, ?)";

    private final JdbcTemplate jdbc;

    public ActualLrpRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** One instance slot, if it has a record. */
    public Optional<ActualLrpRow> find(ActualLrpKey key) {
        return jdbc.query("SELECT " + COLUMNS + " FROM actual_lrps WHERE process_guid = ? AND instance_index = ?",
                ActualLrpRows::map, key.processGuid(), key.index()).stream().findFirst();
    }

    /** The instances of one process, by index (at most its desired instance count, 10,000). */
    public List<ActualLrpRow> ofProcess(String processGuid) {
        return jdbc.query("SELECT " + COLUMNS + " FROM actual_lrps WHERE process_guid = ?" + ORDER,
                ActualLrpRows::map, processGuid);
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

    /** The fingerprint of every instance, or of one domain's: one aggregate, no row leaves the database. */
    public ListFingerprint fingerprint(String domain) {
        String sql = "SELECT count(*), coalesce(sum(hashtextextended(process_guid || '.' || instance_index || '.' "
                + "|| epoch || '.' || version, 0)), 0)::text FROM actual_lrps";
        return domain == null ? jdbc.queryForObject(sql, ActualLrpRows::fingerprint)
                : jdbc.queryForObject(sql + " WHERE domain = ?", ActualLrpRows::fingerprint, domain);
    }

    static ListFingerprint fingerprint(ResultSet rs, int row) throws SQLException {
        return new ListFingerprint(rs.getLong(1), rs.getString(2));
    }

    private static ActualLrpRow map(ResultSet rs, int row) throws SQLException {
        return new ActualLrpRow(rs.getString(1), rs.getInt(2), rs.getString(3), ActualLrpState.valueOf(rs.getString(4)),
                rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8), rs.getInt(9), rs.getString(10),
                rs.getString(11), rs.getLong(12), UUID.fromString(rs.getString(13)), rs.getLong(14));
    }
}
