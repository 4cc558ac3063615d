package io.drover.model.read;

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
import org.springframework.jdbc.core.RowCallbackHandler;

/** Who holds which instance slots ({@link ActualLrpOwner}): those a cell owns, and given slots. Index scans only. */
public class ActualLrpOwners {

    private static final String COLUMNS = "a.process_guid, a.instance_index, a.state, a.instance_guid, a.cell_id, "
            + "a.placed_cell_id, a.epoch, a.stop_requested, false";

    private final JdbcTemplate jdbc;

    public ActualLrpOwners(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The records owned by (or, for a moment, claimed on) {@code cellId}. */
    public List<ActualLrpOwner> ownedBy(String cellId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM actual_lrps a WHERE a.cell_id = ?", ActualLrpOwners::map,
                cellId);
    }

    /** The evacuating twins {@code cellId} holds while it drains (SPEC 8.5) or a deployment runs (SPEC 14). */
    public List<ActualLrpOwner> evacuatingOn(String cellId) {
        return jdbc.query("SELECT a.process_guid, a.instance_index, 'RUNNING', a.instance_guid, a.cell_id, NULL, "
                + "a.epoch, a.stop_requested, a.kept_for = 'deployment' FROM evacuating_lrps a WHERE a.cell_id = ?",
                ActualLrpOwners::map, cellId);
    }

    /** The records of those of {@code keys} that have one, in one query. */
    public Map<ActualLrpKey, ActualLrpOwner> of(Collection<ActualLrpKey> keys) {
        Map<ActualLrpKey, ActualLrpOwner> found = new HashMap<>();
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
        }, (RowCallbackHandler) rs -> {
            ActualLrpOwner owner = map(rs, 0);
            found.put(owner.key(), owner);
        });
        return found;
    }

    private static ActualLrpOwner map(ResultSet rs, int row) throws SQLException {
        return new ActualLrpOwner(ActualLrpKey.of(rs.getString(1), rs.getInt(2)),
                ActualLrpState.valueOf(rs.getString(3)), rs.getString(4), rs.getString(5), rs.getString(6),
                rs.getObject(7, UUID.class), rs.getString(8), rs.getBoolean(9));
    }
}
