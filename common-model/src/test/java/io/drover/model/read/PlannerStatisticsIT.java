package io.drover.model.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.test.WithDroverInfrastructure;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A table analyzed while empty and then refilled, on real PostgreSQL: believed empty until someone analyzes it, and
 * analyzed by {@link PlannerStatistics} once its committed rows show in the statistics system, without anyone counting
 * them. A table of its own (autovacuum off, so only the test analyzes it), so the other tests' rows and statistics are
 * left as they were.
 */
@SpringBootTest
@WithDroverInfrastructure
class PlannerStatisticsIT {

    private static final String TABLE = "planner_statistics_probe";

    @Autowired
    JdbcTemplate jdbc;

    @BeforeEach
    void createTheTable() {
        jdbc.execute("DROP TABLE IF EXISTS " + TABLE);
        jdbc.execute("CREATE TABLE " + TABLE + " (process_guid varchar(128), instance_index int, "
                + "PRIMARY KEY (process_guid, instance_index)) WITH (autovacuum_enabled = false)");
    }

    @AfterEach
    void dropTheTable() {
        jdbc.execute("DROP TABLE IF EXISTS " + TABLE);
    }

    @Test
    void aTableAnalyzedWhileEmptyAndRefilledIsAnalyzedAgainOnceItsRowsShow() {
        PlannerStatistics statistics = new PlannerStatistics(jdbc, Map.of(TABLE, List.of(TABLE)));
        insert(100);
        jdbc.update("DELETE FROM " + TABLE);
        jdbc.execute("ANALYZE " + TABLE);
        assertThat(believed()).as("analyzed while empty").isZero();
        assertThat(statistics.keepUp()).as("empty and believed empty: nothing to do").isEmpty();

        insert(20_000);
        assertThat(believed()).as("what the planner believes after the burst").isZero();

        // the statistics system counts a transaction's rows once its backend reports them (within about a second)
        await().atMost(Duration.ofSeconds(60)).until(() -> statistics.keepUp().contains(TABLE));
        assertThat(believed()).isEqualTo(20_000);
        assertThat(statistics.keepUp()).as("believed now: nothing to do").isEmpty();
    }

    @Test
    void everyWatchedTableIsInTheSchema() {
        int found = jdbc.queryForObject("SELECT count(*) FROM pg_stat_user_tables WHERE relid = ANY (?::regclass[])",
                Integer.class, (Object) PlannerStatistics.BURST_TABLES.keySet().toArray(String[]::new));

        assertThat(found).isEqualTo(PlannerStatistics.BURST_TABLES.size());
    }

    private void insert(int rows) {
        jdbc.update("INSERT INTO " + TABLE + " SELECT 'stats-' || (g / 10), g % 10 FROM generate_series(0, ?) g",
                rows - 1);
    }

    private double believed() {
        return jdbc.queryForObject("SELECT reltuples FROM pg_class WHERE oid = ?::regclass", Double.class, TABLE);
    }
}
