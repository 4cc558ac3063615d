package io.drover.model.read;

import io.drover.model.lrp.ActualLrpState;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What a router reads (SPEC 16): the desired LRPs whose routes name the {@code cf-router} (the routed LRPs), every
 * record and listed twin of those LRPs, and the fingerprint of what routes requests: the routed LRPs and their
 * routable instances, a record RUNNING and not asked to stop or a twin not asked to stop.
 *
 * <p>The fingerprint is a count and a sum of one 64-bit hash per row, the first 8 bytes of the MD5 of its
 * {@link #desiredEntry} or {@link #instanceEntry}: unlike {@link ActualLrpRows#fingerprint}'s PostgreSQL-internal hash,
 * a reader can compute it over what it holds ({@link #hash}) and compare, to find an event it missed.
 */
public class RouteRows {

    /** Routes that mention the router's key; a reader tracks exactly the LRPs this selects. */
    static final String ROUTED = "d.routes IS NOT NULL AND strpos(d.routes, '\"cf-router\"') > 0";
    private static final String INSTANCES = "SELECT a.process_guid, a.instance_index, false, a.state, a.instance_guid, "
            + "a.address, a.ports, a.epoch, a.version, a.stop_requested IS NOT NULL FROM actual_lrps a JOIN desired_lrps "
            + "d ON d.process_guid = a.process_guid WHERE " + ROUTED + " %s UNION ALL SELECT e.process_guid, "
            + "e.instance_index, true, 'RUNNING', e.instance_guid, e.address, e.ports, e.epoch, e.version, false FROM "
            + "evacuating_lrps e JOIN desired_lrps d ON d.process_guid = e.process_guid WHERE " + ROUTED
            + " AND e.stop_requested IS NULL %s";
    private static final String ALL_INSTANCES = INSTANCES.formatted("", "");
    private static final String INSTANCES_OF = INSTANCES.formatted("AND d.process_guid = ?", "AND d.process_guid = ?");
    private static final String HASH = "('x' || substr(md5(%s), 1, 16))::bit(64)::bigint";
    private static final String FINGERPRINT = "SELECT count(*), coalesce(sum(h), 0)::text FROM ("
            + "SELECT " + HASH.formatted("'d.' || d.process_guid || '.' || d.epoch || '.' || d.version")
            + " AS h FROM desired_lrps d WHERE " + ROUTED
            + " UNION ALL SELECT " + HASH.formatted("'a.' || a.process_guid || '.' || a.instance_index || '.' || "
                    + "a.instance_guid || '.' || a.epoch || '.' || a.version")
            + " FROM actual_lrps a JOIN desired_lrps d ON d.process_guid = a.process_guid WHERE " + ROUTED
            + " AND a.state = 'RUNNING' AND a.stop_requested IS NULL"
            + " UNION ALL SELECT " + HASH.formatted("'e.' || e.process_guid || '.' || e.instance_index || '.' || "
                    + "e.instance_guid || '.' || e.epoch || '.' || e.version")
            + " FROM evacuating_lrps e JOIN desired_lrps d ON d.process_guid = e.process_guid WHERE " + ROUTED
            + " AND e.stop_requested IS NULL) AS rows";

    private final JdbcTemplate jdbc;

    public RouteRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Every routed LRP. */
    public List<RoutedLrp> routedLrps() {
        return jdbc.query("SELECT d.process_guid, d.routes, d.ports, d.epoch, d.version FROM desired_lrps d WHERE "
                + ROUTED, RouteRows::routedLrp);
    }

    /** One LRP, if it is routed. */
    public List<RoutedLrp> routedLrp(String processGuid) {
        return jdbc.query("SELECT d.process_guid, d.routes, d.ports, d.epoch, d.version FROM desired_lrps d WHERE "
                + ROUTED + " AND d.process_guid = ?", RouteRows::routedLrp, processGuid);
    }

    /** Every record of the routed LRPs, and every twin of theirs not asked to stop. */
    public List<RouteInstance> instances() {
        return jdbc.query(ALL_INSTANCES, RouteRows::instance);
    }

    /** The records and listed twins of one routed LRP (none when it is not routed). */
    public List<RouteInstance> instancesOf(String processGuid) {
        return jdbc.query(INSTANCES_OF, RouteRows::instance, processGuid, processGuid);
    }

    /**
     * The snapshot the reads of this transaction see (in a {@link ConsistentReads} transaction, every read's): the
     * events of the transactions it saw are older than those reads.
     */
    public TransactionSnapshot snapshot() {
        return TransactionSnapshot.parse(jdbc.queryForObject("SELECT pg_current_snapshot()::text", String.class));
    }

    /** The fingerprint of the routed LRPs and their routable instances (see the class comment). */
    public ListFingerprint fingerprint() {
        return jdbc.queryForObject(FINGERPRINT, ActualLrpRows::fingerprint);
    }

    /** What a routed LRP's fingerprint hashes. */
    public static String desiredEntry(String processGuid, UUID epoch, long version) {
        return "d." + processGuid + "." + epoch + "." + version;
    }

    /** What a routable instance's fingerprint hashes: a record's ({@code evacuating} false) or a twin's. */
    public static String instanceEntry(String processGuid, int index, boolean evacuating, String instanceGuid,
            UUID epoch, long version) {
        return (evacuating ? "e." : "a.") + processGuid + "." + index + "." + instanceGuid + "." + epoch + "." + version;
    }

    /** The 64-bit hash of one entry, as the fingerprint's query computes it. */
    public static long hash(String entry) {
        try {
            byte[] md5 = MessageDigest.getInstance("MD5").digest(entry.getBytes(StandardCharsets.UTF_8));
            long h = 0;
            for (int i = 0; i < 8; i++) {
                h = (h << 8) | (md5[i] & 0xff);
            }
            return h;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has MD5", e);
        }
    }

    /** Whether a fingerprint is that of {@code rows} entries whose hashes add up to {@code sum} (modulo 2^64). */
    public static boolean matches(ListFingerprint fingerprint, long rows, long sum) {
        return fingerprint.rows() == rows && new BigInteger(fingerprint.digest()).longValue() == sum;
    }

    private static RoutedLrp routedLrp(ResultSet rs, int row) throws SQLException {
        return new RoutedLrp(rs.getString(1), rs.getString(2), rs.getString(3), UUID.fromString(rs.getString(4)),
                rs.getLong(5));
    }

    private static RouteInstance instance(ResultSet rs, int row) throws SQLException {
        return new RouteInstance(rs.getString(1), rs.getInt(2), rs.getBoolean(3),
                ActualLrpState.valueOf(rs.getString(4)), rs.getString(5), rs.getString(6), rs.getString(7),
                UUID.fromString(rs.getString(8)), rs.getLong(9), rs.getBoolean(10));
    }

    /** A routed LRP: its routes and container ports as stored (JSON text), and its modification tag. */
    public record RoutedLrp(String processGuid, String routesJson, String portsJson, UUID epoch, long version) {
    }

    /**
     * A record ({@code evacuating} false) or a listed twin of a routed LRP; {@code portsJson} the stored port
     * mappings, {@code stopRequested} whether its cell was asked to stop it.
     */
    public record RouteInstance(String processGuid, int index, boolean evacuating, ActualLrpState state,
            String instanceGuid, String address, String portsJson, UUID epoch, long version, boolean stopRequested) {
    }
}
