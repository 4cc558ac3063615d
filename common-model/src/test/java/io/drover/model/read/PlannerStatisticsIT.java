package io.drover.model.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.test.WithDroverInfrastructure;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The statistics of a table analyzed while empty and then refilled, on real PostgreSQL: believed empty until someone
 * analyzes it, and refreshed by {@link PlannerStatistics} once, not at every pass. All in one transaction that is rolled
 * back (ANALYZE is transactional), so the other tests' rows and statistics are left as they were.
 */
@SpringBootTest
@WithDroverInfrastructure
class PlannerStatisticsIT {

    @Autowired
    PlannerStatistics statistics;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    PlatformTransactionManager txManager;

    @Test
    void aTableAnalyzedWhileEmptyAndRefilledIsAnalyzedAgainOnce() {
        new TransactionTemplate(txManager).executeWithoutResult(status -> {
            jdbc.update("DELETE FROM actual_lrps");
            jdbc.execute("ANALYZE actual_lrps");
            jdbc.update("""
                    INSERT INTO actual_lrps (process_guid, instance_index, domain, state, crash_count, since, epoch,
                                             version)
                    SELECT 'stats-' || (g / 10), g % 10, 'd1', 'UNCLAIMED', 0, now(), gen_random_uuid(), 0
                    FROM generate_series(0, 19999) g""");
            assertThat(believed("actual_lrps")).as("what the planner believes after the burst").isZero();

            assertThat(statistics.keepUp("actual_lrps", 20_000)).isTrue();
            assertThat(believed("actual_lrps")).isEqualTo(20_000);
            assertThat(statistics.keepUp("actual_lrps", 20_000)).as("believed now: nothing to do").isFalse();
            status.setRollbackOnly();
        });
    }

    @Test
    void onlyTheLrpTablesAreKept() {
        assertThatThrownBy(() -> statistics.keepUp("cells; DROP TABLE cells", 1)).isInstanceOf(
                IllegalArgumentException.class);
    }

    private double believed(String table) {
        return jdbc.queryForObject("SELECT reltuples FROM pg_class WHERE oid = ?::regclass", Double.class, table);
    }
}
