package io.drover.model.read;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

/**
 * What a draining cell still carries (SPEC 18's {@code instances_left} and {@code tasks_left}), from the records: the
 * instances it owns (CLAIMED or RUNNING there) and the old instances it keeps serving from their evacuating twins
 * until their replacements run elsewhere; the tasks RUNNING there. One statement over the cells' indexes.
 */
public class DrainProgress {

    private static final String LEFT = """
            SELECT cell_id, sum(instances), sum(tasks) FROM (
                SELECT cell_id, count(*) AS instances, 0 AS tasks FROM actual_lrps
                WHERE cell_id = ANY (?) AND state IN ('CLAIMED', 'RUNNING') GROUP BY 1
                UNION ALL
                SELECT cell_id, count(*), 0 FROM evacuating_lrps WHERE cell_id = ANY (?) GROUP BY 1
                UNION ALL
                SELECT cell_id, 0, count(*) FROM tasks WHERE cell_id = ANY (?) AND state = 'RUNNING' GROUP BY 1
            ) left_on_cell GROUP BY cell_id""";

    private final JdbcTemplate jdbc;

    public DrainProgress(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** What each of these cells still carries; a cell that carries nothing is {@link Left#NOTHING}. */
    public Map<String, Left> of(Collection<String> cellIds) {
        Map<String, Left> left = new HashMap<>();
        cellIds.forEach(c -> left.put(c, Left.NOTHING));
        if (cellIds.isEmpty()) {
            return left;
        }
        jdbc.query(con -> {
            var ps = con.prepareStatement(LEFT);
            var ids = con.createArrayOf("varchar", cellIds.toArray());
            ps.setArray(1, ids);
            ps.setArray(2, ids);
            ps.setArray(3, ids);
            return ps;
        }, (RowCallbackHandler) rs -> left.put(rs.getString(1), new Left(rs.getInt(2), rs.getInt(3))));
        return left;
    }

    /** The instances and the tasks still on a cell. */
    public record Left(int instances, int tasks) {

        public static final Left NOTHING = new Left(0, 0);
    }
}
