package io.drover.model.lrp;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Reads actual LRPs over JDBC, as the lifecycle's own store maps them. It has no write methods on purpose: every write
 * goes through {@link ActualLrpLifecycle}.
 */
public class ActualLrpRepository {

    private static final String SELECT = "SELECT " + ActualLrpStore.COLUMNS + " FROM actual_lrps a ";

    private final JdbcTemplate jdbc;

    public ActualLrpRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<ActualLrp> findById(ActualLrpKey key) {
        return jdbc.query(SELECT + "WHERE a.process_guid = ? AND a.instance_index = ?",
                (rs, i) -> ActualLrpStore.mapRecord(rs, 0), key.processGuid(), key.index()).stream().findFirst();
    }

    public List<ActualLrp> findByProcessGuid(String processGuid) {
        return jdbc.query(SELECT + "WHERE a.process_guid = ? ORDER BY a.instance_index",
                (rs, i) -> ActualLrpStore.mapRecord(rs, 0), processGuid);
    }

    public List<ActualLrp> findByProcessGuidIn(Collection<String> processGuids) {
        return jdbc.query(con -> {
            var ps = con.prepareStatement(SELECT + "WHERE a.process_guid = ANY (?) ORDER BY a.process_guid, "
                    + "a.instance_index");
            ps.setArray(1, con.createArrayOf("varchar", processGuids.toArray()));
            return ps;
        }, (rs, i) -> ActualLrpStore.mapRecord(rs, 0));
    }

    public List<ActualLrp> findByDomain(String domain) {
        return jdbc.query(SELECT + "WHERE a.domain = ? ORDER BY a.process_guid, a.instance_index",
                (rs, i) -> ActualLrpStore.mapRecord(rs, 0), domain);
    }

    public List<ActualLrp> findByCellId(String cellId) {
        return jdbc.query(SELECT + "WHERE a.cell_id = ?", (rs, i) -> ActualLrpStore.mapRecord(rs, 0), cellId);
    }

    public List<ActualLrp> findAllOrdered() {
        return jdbc.query(SELECT + "ORDER BY a.process_guid, a.instance_index", (rs, i) -> ActualLrpStore.mapRecord(rs, 0));
    }

    /** The evacuating twin of a slot, if its cell is draining it. */
    public Optional<ActualLrp> findEvacuating(ActualLrpKey key) {
        return jdbc.query("SELECT " + ActualLrpStore.TWIN_COLUMNS + " FROM evacuating_lrps e "
                + "WHERE e.process_guid = ? AND e.instance_index = ?", (rs, i) -> ActualLrpStore.mapTwin(rs, 0),
                key.processGuid(), key.index()).stream().findFirst();
    }

    /** The evacuating twins of one LRP, by index. */
    public List<ActualLrp> findEvacuatingByProcessGuid(String processGuid) {
        return jdbc.query("SELECT " + ActualLrpStore.TWIN_COLUMNS + " FROM evacuating_lrps e "
                + "WHERE e.process_guid = ? ORDER BY e.instance_index", (rs, i) -> ActualLrpStore.mapTwin(rs, 0),
                processGuid);
    }

    public long count() {
        return jdbc.queryForObject("SELECT count(*) FROM actual_lrps", Long.class);
    }
}
