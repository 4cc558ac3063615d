package io.drover.model.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.RunAction;
import io.drover.model.lrp.StartedInstance;
import io.drover.test.WithDroverInfrastructure;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/** What a router reads, and a fingerprint it can compute itself over what it holds. */
@SpringBootTest
@WithDroverInfrastructure
class RouteRowsIT {

    static final Actor TEST = Actor.service("test");
    static final NetInfo NET = new NetInfo("10.0.0.9", List.of(new NetInfo.PortMapping(8080, 61005)));

    @Autowired
    RouteRows routes;
    @Autowired
    ActualLrpLifecycle actuals;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    CellPresence presence;
    @Autowired
    ConsistentReads reads;
    @Autowired
    DataSource dataSource;

    @Test
    void aRouterReadsTheRoutedLrpsTheirRowsAndAFingerprintOfWhatRoutes() {
        String domain = "routes-" + UUID.randomUUID();
        String routed = desire(domain, "{\"cf-router\":[{\"hostnames\":[\"a.example.com\"],\"port\":8080}]}");
        String unrouted = desire(domain, "{\"other\":{\"x\":1}}");
        String cell = liveCell();
        InstanceOwner zero = run(domain, ActualLrpKey.of(routed, 0), cell);
        run(domain, ActualLrpKey.of(routed, 1), cell);
        run(domain, ActualLrpKey.of(routed, 2), cell);
        run(domain, ActualLrpKey.of(unrouted, 0), cell);
        actuals.evacuate(Map.of(ActualLrpKey.of(routed, 0), zero), TEST); // a twin, the record UNCLAIMED
        presence.heartbeat(registration(cell), Duration.ofSeconds(60)); // the cell stays live for the retire
        actuals.retire(List.of(ActualLrpKey.of(routed, 2)), "scaled down", TEST); // asked to stop

        assertThat(routes.routedLrps()).extracting(RouteRows.RoutedLrp::processGuid).contains(routed)
                .doesNotContain(unrouted);
        List<RouteRows.RouteInstance> rows = routes.instancesOf(routed);
        assertThat(rows).extracting(r -> r.index() + "/" + r.evacuating() + "/" + r.state() + "/" + r.stopRequested())
                .containsExactlyInAnyOrder("0/false/UNCLAIMED/false", "0/true/RUNNING/false", "1/false/RUNNING/false",
                        "2/false/RUNNING/true");
        assertThat(routes.instancesOf(unrouted)).isEmpty();
        assertThat(routes.instances()).containsAll(rows);

        long count = 0;
        long sum = 0;
        for (RouteRows.RoutedLrp lrp : routes.routedLrps()) {
            count++;
            sum += RouteRows.hash(RouteRows.desiredEntry(lrp.processGuid(), lrp.epoch(), lrp.version()));
        }
        for (RouteRows.RouteInstance row : routes.instances()) {
            if ((row.evacuating() || row.state() == ActualLrpState.RUNNING) && !row.stopRequested()) {
                count++;
                sum += RouteRows.hash(RouteRows.instanceEntry(row.processGuid(), row.index(), row.evacuating(),
                        row.instanceGuid(), row.epoch(), row.version()));
            }
        }
        assertThat(RouteRows.matches(routes.fingerprint(), count, sum)).as("the fingerprint %s over %s rows",
                routes.fingerprint(), count).isTrue();
        assertThat(RouteRows.matches(routes.fingerprint(), count, sum + 1)).isFalse();
    }

    /**
     * The snapshot a router keeps of its read: it saw what committed before the read's transaction began, not a
     * transaction running then (though it commits before the snapshot is asked for), nor one that began later, and
     * every read of the transaction shares it.
     */
    @Test
    void theSnapshotOfAReadSawExactlyTheTransactionsThatEndedBeforeIt() throws Exception {
        long before = committedTransaction();
        try (Connection running = dataSource.getConnection()) {
            running.setAutoCommit(false);
            long duringRead = transactionId(running);
            TransactionSnapshot snapshot = reads.inOneSnapshot(() -> {
                routes.routedLrps();
                long after = committedTransaction();
                try {
                    running.commit();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
                TransactionSnapshot taken = routes.snapshot();
                assertThat(taken.saw(after)).as("a transaction that began after the read's first query").isFalse();
                return taken;
            });
            assertThat(snapshot.saw(before)).as("a transaction committed before the read").isTrue();
            assertThat(snapshot.saw(duringRead)).as("a transaction running when the read began").isFalse();
            assertThat(snapshot.saw(committedTransaction())).as("a later transaction").isFalse();
            assertThat(reads.inOneSnapshot(routes::snapshot).saw(duringRead)).as("a later read").isTrue();
        }
    }

    /** The id of a transaction that has committed (in a connection of its own). */
    private long committedTransaction() {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            long id = transactionId(connection);
            connection.commit();
            return id;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long transactionId(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT pg_current_xact_id()::text");
                ResultSet rs = statement.executeQuery()) {
            rs.next();
            return Long.parseUnsignedLong(rs.getString(1));
        }
    }

    private InstanceOwner run(String domain, ActualLrpKey key, String cell) {
        InstanceOwner owner = InstanceOwner.of("ig-" + UUID.randomUUID(), cell);
        actuals.claim(key, owner, Actor.cell(cell));
        actuals.start(new StartedInstance(key, domain, owner, NET), Actor.cell(cell));
        return owner;
    }

    private String desire(String domain, String routesJson) {
        String guid = "route-" + UUID.randomUUID();
        desired.desire(new DesiredLrpDefinition(guid, domain, "preloaded:host", 3,
                new Action(new RunAction("sleep", List.of("100"), null, List.of(), null)), null, null, 0, List.of(),
                List.of(8080), 64, 64, 0, 0, List.of(), routesJson, null, null, null), TEST);
        return guid;
    }

    private String liveCell() {
        String cell = "cell-" + UUID.randomUUID();
        presence.heartbeat(registration(cell), Duration.ofSeconds(60));
        return cell;
    }

    private static CellRegistration registration(String cell) {
        return new CellRegistration(cell, "z1", "10.0.0.1", new Resources(4096, 4096, 10), List.of("preloaded:host"),
                List.of(), List.of());
    }
}
