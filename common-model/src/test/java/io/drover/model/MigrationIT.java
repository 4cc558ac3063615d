package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.model.messaging.OutboxRelay;
import io.drover.test.TestBackend;
import io.drover.test.WithDroverInfrastructure;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The schema itself (raw SQL is the point here): Flyway builds it from an empty PostgreSQL 15 database, its CHECK
 * constraints hold the SPEC 3.1 invariants, and the hot queries are index scans once the tables hold tens of thousands
 * of rows. That the code's statements fit it is {@link SchemaIT}'s.
 */
@SpringBootTest
@WithDroverInfrastructure
class MigrationIT {

    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    PlatformTransactionManager txManager;

    @Test
    void flywayBuildsTheSchemaOnPostgresFifteen() {
        assertThat(jdbc.queryForObject("SHOW server_version_num", Integer.class)).isBetween(150000, 159999);
        assertThat(jdbc.queryForList("SELECT version || ':' || success FROM flyway_schema_history "
                + "WHERE version IS NOT NULL ORDER BY installed_rank", String.class)).startsWith("1:true");
        assertThat(jdbc.queryForList("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
                String.class)).contains("desired_lrps", "actual_lrps", "cells", "domains", "outbox", "lrp_events");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "unknown state            | BOGUS     |      |        |          |",
            "unclaimed with an owner  | UNCLAIMED | ig-1 | cell-a |          |",
            "claimed without owner    | CLAIMED   |      |        |          |",
            "claimed with net info    | CLAIMED   | ig-1 | cell-a | 10.0.0.1 |",
            "running without address  | RUNNING   | ig-1 | cell-a |          |",
            "crashed with an owner    | CRASHED   | ig-1 | cell-a |          |",
            "running with a placement | RUNNING   | ig-1 | cell-a | 10.0.0.1 | cell-b" })
    void checkConstraintsRejectAnInvalidRow(String description, String state, String instanceGuid, String cellId,
            String address, String placedCellId) {
        assertThatThrownBy(() -> insertActual("bad-" + description.replace(' ', '-'), state, instanceGuid, cellId,
                address, placedCellId)).isInstanceOf(DataIntegrityViolationException.class);
    }

    @Test
    void checkConstraintsAcceptEveryValidShape() {
        new TransactionTemplate(txManager).executeWithoutResult(status -> {
            insertActual("ok-unclaimed", "UNCLAIMED", null, null, null, "cell-b");
            insertActual("ok-claimed", "CLAIMED", "ig-1", "cell-a", null, null);
            insertActual("ok-running", "RUNNING", "ig-1", "cell-a", "10.0.0.1", null);
            insertActual("ok-crashed", "CRASHED", null, null, null, null);
            status.setRollbackOnly();
        });
    }

    @Test
    void hotQueriesUseTheirIndexes() {
        new TransactionTemplate(txManager).executeWithoutResult(status -> {
            fillTables(jdbc, 50_000);
            String keys = "unnest((SELECT array_agg('p-' || g) FROM generate_series(1, 500) g)::varchar[], "
                    + "(SELECT array_agg(g % 10) FROM generate_series(1, 500) g)::int[]) AS k(g, i)";
            Map<String, String> expectations = Map.of(
                    "SELECT * FROM actual_lrps WHERE cell_id = 'cell-7'", "actual_lrps_cell_idx",
                    "SELECT * FROM actual_lrps WHERE process_guid = 'p-42' ORDER BY instance_index",
                    "actual_lrps_pkey",
                    "SELECT id, topic, message_key, payload FROM outbox WHERE (tx_id, id) > ('0'::xid8, 25000) "
                            + "ORDER BY tx_id, id LIMIT 2000", "outbox_relay_idx",
                    "SELECT id, payload FROM lrp_events WHERE (tx_id, id) > ('0'::xid8, 25000) AND payload IS NOT NULL "
                            + "ORDER BY tx_id, id LIMIT 2000", "lrp_events_relay_idx",
                    "SELECT a.* FROM actual_lrps a JOIN " + keys + " ON a.process_guid = k.g "
                            + "AND a.instance_index = k.i", "actual_lrps_pkey",
                    "SELECT * FROM lrp_events WHERE process_guid = 'p-42' AND instance_index = 3 ORDER BY id",
                    "lrp_events_entity_idx");
            expectations.forEach((query, index) -> assertThat(plan(query)).as(query).contains(index)
                    .doesNotContain("Seq Scan"));
            // a relay on standby asks this every few seconds, for ever: a seek in each relayed table, never a scan
            assertThat(plan(OutboxRelay.PROGRESS)).as("the relays' progress check")
                    .contains("outbox_relay_idx", "lrp_events_relay_idx")
                    .doesNotContain("Seq Scan on outbox", "Seq Scan on lrp_events");
            // the relay's read: index ranges up to the settled limit and one entry past it, never a scan
            for (String read : OutboxRelay.readStatements()) {
                String relayPlan = String.join("\n", jdbc.queryForList("EXPLAIN " + read, String.class, "0", 25_000,
                        2_000, "0", 25_000));
                assertThat(relayPlan).as(read).containsPattern("(outbox|lrp_events)_relay_idx")
                        .doesNotContain("Seq Scan").doesNotContain("Sort");
            }
            // keyset pages of the lists, of everything or of one domain: a range scan in key order, never a sort
            for (String page : List.of("SELECT * FROM actual_lrps WHERE (process_guid, instance_index) > ('p-42', 3) "
                    + "ORDER BY process_guid, instance_index LIMIT 1000", "SELECT * FROM actual_lrps WHERE domain = 'd1' "
                    + "AND (process_guid, instance_index) > ('p-42', 3) ORDER BY process_guid, instance_index LIMIT 1000",
                    "SELECT * FROM actual_lrps WHERE domain = 'd2' ORDER BY process_guid, instance_index LIMIT 1000")) {
                assertThat(plan(page)).as(page).contains("Index").doesNotContain("Seq Scan").doesNotContain("Sort");
            }
            status.setRollbackOnly();
        });
    }

    /**
     * A submission's admission counts its domain's unfinished tasks: a seek into the partial index of the unfinished
     * ones, however many finished tasks the table holds (issue 37: a scan of the table, or of the domain's every task,
     * was 5 % of P6's executor time for a count made once a second).
     */
    @Test
    void theAdmissionCountReadsOnlyTheDomainsUnfinishedTasks() {
        new TransactionTemplate(txManager).executeWithoutResult(status -> {
            jdbc.update("""
                    INSERT INTO tasks (task_guid, domain, rootfs, action, state, cell_id, placed_cell_id,
                                       first_completed_at, completion_callback_url, callback_status, created_at,
                                       updated_at, epoch, version)
                    SELECT 'quota-t' || g, CASE WHEN g % 3 = 0 THEN 'quota-b' ELSE 'quota-a' END, 'preloaded:host', '{}', s.state,
                           CASE WHEN s.state <> 'PENDING' THEN 'cell-' || (g % 1000) END,
                           CASE WHEN s.state = 'PENDING' AND g % 2 = 0 THEN 'cell-' || (g % 1000) END,
                           CASE WHEN s.state = 'COMPLETED' THEN now() END, 'http://example.com/done', 'pending',
                           now(), now(), gen_random_uuid(), 0
                    FROM generate_series(0, 49999) g,
                         LATERAL (SELECT CASE WHEN g % 20 = 1 THEN 'PENDING' WHEN g % 20 = 2 THEN 'RUNNING'
                                              ELSE 'COMPLETED' END AS state) s""");
            jdbc.execute("ANALYZE tasks");
            // domains of their own: other classes' tasks may share this database
            String count = "SELECT count(*) FROM tasks WHERE domain = 'quota-a' AND state IN ('PENDING', 'RUNNING')";

            assertThat(plan(count)).contains("tasks_unfinished_idx").doesNotContain("Seq Scan");
            assertThat(jdbc.queryForObject(count, Long.class)).isEqualTo(3_334);
            status.setRollbackOnly();
        });
    }

    /**
     * V32 on a database that already holds instances: the kept counts start from the rows there (counted under the
     * lock its triggers take), follow the writes after it, and a TRUNCATE empties them with the rows.
     */
    @Test
    void theKeptInstanceCountsStartFromTheRowsAlreadyThere() throws Exception {
        TestBackend backend = TestBackend.current();
        String url = backend.postgres().createDatabase();
        DriverManagerDataSource dataSource = new DriverManagerDataSource(url, backend.postgres().username(),
                backend.postgres().password());
        Flyway.configure().dataSource(dataSource).target("31").load().migrate();
        JdbcTemplate older = new JdbcTemplate(dataSource);
        fillTables(older, 1_000);
        Flyway.configure().dataSource(dataSource).load().migrate();

        assertThat(kept(older)).isEqualTo(Map.of("d1/RUNNING", 890L, "d1/CRASHED", 10L, "d2/RUNNING", 90L,
                "d2/UNCLAIMED", 10L));
        older.update("UPDATE actual_lrps SET state = 'UNCLAIMED' WHERE state = 'CRASHED'");
        older.update("DELETE FROM actual_lrps WHERE domain = 'd2'");
        assertThat(kept(older)).isEqualTo(Map.of("d1/RUNNING", 890L, "d1/UNCLAIMED", 10L));
        older.execute("TRUNCATE actual_lrps");
        assertThat(kept(older)).isEmpty();
    }

    /** The kept counts by domain/state, zeroes left out. */
    private static Map<String, Long> kept(JdbcTemplate on) {
        Map<String, Long> kept = new TreeMap<>();
        on.query("SELECT domain || '/' || state, sum(n) FROM instance_tallies GROUP BY 1 HAVING sum(n) <> 0",
                (RowCallbackHandler) rs -> kept.put(rs.getString(1), rs.getLong(2)));
        return kept;
    }

    /** 98 % RUNNING spread over 1,000 cells, the rest UNCLAIMED or CRASHED; outbox and events half relayed; statistics fresh. */
    private static void fillTables(JdbcTemplate jdbc, int rows) {
        jdbc.update("""
                INSERT INTO actual_lrps (process_guid, instance_index, domain, state, instance_guid, cell_id, address,
                                         crash_count, since, epoch, version)
                SELECT 'p-' || (g / 10), g % 10, CASE WHEN g % 10 = 0 THEN 'd2' ELSE 'd1' END, s.state,
                       CASE WHEN s.state = 'RUNNING' THEN 'ig-' || g END,
                       CASE WHEN s.state = 'RUNNING' THEN 'cell-' || (g % 1000) END,
                       CASE WHEN s.state = 'RUNNING' THEN '10.0.0.1' END,
                       CASE WHEN s.state = 'CRASHED' THEN 3 ELSE 0 END,
                       now() - g * interval '1 second', gen_random_uuid(), 0
                FROM generate_series(0, ? - 1) g,
                     LATERAL (SELECT CASE WHEN g % 100 = 0 THEN 'UNCLAIMED' WHEN g % 100 = 1 THEN 'CRASHED'
                                          ELSE 'RUNNING' END AS state) s""", rows);
        jdbc.update("""
                INSERT INTO outbox (topic, message_key, payload, created_at)
                SELECT 't', 'k-' || g, convert_to('{}', 'UTF8'), now() FROM generate_series(1, ?) g""", rows);
        jdbc.update("""
                INSERT INTO lrp_events (entity, process_guid, instance_index, event_type, actor_service, version, at,
                                        payload)
                SELECT 'actual', 'p-' || (g / 10), g % 10, 'actual_lrp_changed', 'test', 1, now(), convert_to('{}', 'UTF8')
                FROM generate_series(0, ? - 1) g""", rows);
        jdbc.execute("ANALYZE actual_lrps");
        jdbc.execute("ANALYZE outbox");
        jdbc.execute("ANALYZE lrp_events");
    }

    private String plan(String query) {
        List<String> lines = jdbc.queryForList("EXPLAIN " + query, String.class);
        return String.join("\n", lines);
    }

    private void insertActual(String guid, String state, String instanceGuid, String cellId, String address,
            String placedCellId) {
        jdbc.update("INSERT INTO actual_lrps (process_guid, instance_index, domain, state, instance_guid, cell_id, "
                + "address, placed_cell_id, crash_count, since, epoch, version) "
                + "VALUES (?, 0, 'd1', ?, ?, ?, ?, ?, 1, now(), gen_random_uuid(), 0)",
                guid, state, instanceGuid, cellId, address, placedCellId);
    }
}
