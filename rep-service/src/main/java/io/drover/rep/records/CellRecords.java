package io.drover.rep.records;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/** Plain-JDBC reads of actual LRP records: those a cell owns, and those of given instance slots. Index scans only. */
public class CellRecords {

    private static final String COLUMNS = "a.process_guid, a.instance_index, a.state, a.instance_guid, a.cell_id, "
            + "a.placed_cell_id, a.epoch";

    private final JdbcTemplate jdbc;

    public CellRecords(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The records owned by (or, for a moment, claimed on) this cell. */
    public List<RecordView> ownedBy(String cellId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM actual_lrps a WHERE a.cell_id = ?", CellRecords::map, cellId);
    }

    /** The evacuating twins this cell holds (SPEC 8.5): always RUNNING, owned by the old instance. */
    public List<RecordView> evacuatingOn(String cellId) {
        return jdbc.query("SELECT a.process_guid, a.instance_index, 'RUNNING', a.instance_guid, a.cell_id, NULL, a.epoch "
                + "FROM evacuating_lrps a WHERE a.cell_id = ?", CellRecords::map, cellId);
    }

    public Map<ActualLrpKey, RecordView> byKeys(Collection<ActualLrpKey> keys) {
        Map<ActualLrpKey, RecordView> found = new HashMap<>();
        if (keys.isEmpty()) {
            return found;
        }
        String[] guids = keys.stream().map(ActualLrpKey::processGuid).toArray(String[]::new);
        Integer[] indices = keys.stream().map(ActualLrpKey::index).toArray(Integer[]::new);
        jdbc.query(con -> {
            var ps = con.prepareStatement("SELECT " + COLUMNS + " FROM actual_lrps a JOIN unnest(?::varchar[], "
                    + "?::int[]) AS k(g, i) ON a.process_guid = k.g AND a.instance_index = k.i");
            ps.setArray(1, con.createArrayOf("varchar", guids));
            ps.setArray(2, con.createArrayOf("int4", indices));
            return ps;
        }, (ResultSet rs) -> {
            RecordView r = map(rs, 0);
            found.put(r.key(), r);
        });
        return found;
    }

    private static RecordView map(ResultSet rs, int row) throws SQLException {
        return new RecordView(ActualLrpKey.of(rs.getString(1), rs.getInt(2)), ActualLrpState.valueOf(rs.getString(3)),
                rs.getString(4), rs.getString(5), rs.getString(6), rs.getObject(7, UUID.class));
    }
}
