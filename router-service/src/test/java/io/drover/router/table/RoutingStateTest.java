package io.drover.router.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.lrp.ActualLrpState;
import io.drover.model.read.TransactionSnapshot;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RoutingStateTest {

    static final UUID LRP_EPOCH = UUID.randomUUID();
    static final UUID ROW_EPOCH = UUID.randomUUID();
    static final String WEB = "{\"cf-router\":[{\"hostnames\":[\"web.example.com\",\"WWW.example.com\"],\"port\":8080}]}";

    final RoutingState state = new RoutingState();

    @Test
    void aRunningInstanceServesEveryHostnameOfItsRouteAtTheHostPortOfTheRoutesPort() {
        desire("web", WEB, 0);
        state.apply(created(row("web", 0, ActualLrpState.RUNNING, "g0", 3)), 0);

        assertThat(backends("web.example.com")).containsExactly("g0@10.0.0.1:61000");
        assertThat(backends("www.example.com")).as("hostnames are lower case").containsExactly("g0@10.0.0.1:61000");
    }

    @Test
    void anInstanceNotRunningServesNothingAndARouteWithoutInstancesStaysKnown() {
        desire("web", WEB, 0);
        state.apply(created(row("web", 0, ActualLrpState.CLAIMED, "g0", 1)), 0);

        assertThat(state.table().route("web.example.com")).isNotNull();
        assertThat(backends("web.example.com")).isEmpty();
    }

    @Test
    void anInstanceAskedToStopLeavesAtOnceAndNoLaterChangeBringsItBack() {
        desire("web", WEB, 0);
        state.apply(created(row("web", 0, ActualLrpState.RUNNING, "g0", 3)), 0);
        state.apply(new Seen.StopRequested("web", "g0"), 0);
        assertThat(backends("web.example.com")).isEmpty();

        state.apply(changed(row("web", 0, ActualLrpState.RUNNING, "g0", 3), row("web", 0, ActualLrpState.RUNNING, "g0",
                5)), 0);
        assertThat(backends("web.example.com")).isEmpty();
    }

    @Test
    void aChangeOlderThanTheRowHeldIsDropped() {
        desire("web", WEB, 0);
        state.apply(created(row("web", 0, ActualLrpState.RUNNING, "g0", 3)), 0);
        state.apply(created(row("web", 0, ActualLrpState.CLAIMED, "g0", 2)), 0);
        assertThat(backends("web.example.com")).containsExactly("g0@10.0.0.1:61000");
    }

    @Test
    void aRemovalRemovesOnlyTheIncarnationItNames() {
        desire("web", WEB, 0);
        state.apply(created(row("web", 0, ActualLrpState.RUNNING, "g0", 3)), 0);
        Seen.Row other = new Seen.Row("web", 0, false, ActualLrpState.RUNNING, "old", "10.0.0.1", Map.of(8080, 1),
                UUID.randomUUID(), 9);
        state.apply(new Seen.ActualChange(other, null), 0);
        assertThat(backends("web.example.com")).containsExactly("g0@10.0.0.1:61000");

        state.apply(new Seen.ActualChange(row("web", 0, ActualLrpState.RUNNING, "g0", 3), null), 0);
        assertThat(backends("web.example.com")).isEmpty();
    }

    @Test
    void aTwinServesBesideItsSlotsRecordUntilItIsAnnouncedRemoved() {
        desire("web", WEB, 0);
        state.apply(created(row("web", 0, ActualLrpState.RUNNING, "new", 3)), 0);
        Seen.Row twin = new Seen.Row("web", 0, true, ActualLrpState.RUNNING, "old", "10.0.0.2", Map.of(8080, 62000),
                UUID.randomUUID(), 0);
        state.apply(created(twin), 0);
        assertThat(backends("web.example.com")).containsExactly("new@10.0.0.1:61000", "old@10.0.0.2:62000");

        state.apply(new Seen.ActualChange(twin, null), 0);
        assertThat(backends("web.example.com")).containsExactly("new@10.0.0.1:61000");
    }

    @Test
    void aRouteTakenOffTheLrpDisappearsAndItsDeletionTakesTheRest() {
        desire("web", WEB, 0);
        state.apply(created(row("web", 0, ActualLrpState.RUNNING, "g0", 3)), 0);
        Seen.Lrp before = lrp("web", WEB, 0);
        Seen.Lrp after = lrp("web", "{\"cf-router\":[{\"hostnames\":[\"web.example.com\"],\"port\":8080}]}", 1);
        state.apply(new Seen.DesiredChange(before, after), 0);
        assertThat(state.table().route("www.example.com")).isNull();
        assertThat(backends("web.example.com")).containsExactly("g0@10.0.0.1:61000");

        state.apply(new Seen.DesiredChange(after, null), 0);
        assertThat(state.table().routes()).isEmpty();
    }

    @Test
    void anLrpThatGainsRoutesAsksForItsRowsToBeRead() {
        Seen.Lrp unrouted = lrp("web", null, 0);
        state.apply(new Seen.DesiredChange(null, unrouted), 0);
        state.apply(created(row("web", 0, ActualLrpState.RUNNING, "g0", 3)), 0);
        assertThat(state.takeToLoad()).isEmpty();

        state.apply(new Seen.DesiredChange(unrouted, lrp("web", WEB, 1)), 0);
        assertThat(state.takeToLoad()).containsExactly("web");
        state.loaded("web", List.of(row("web", 0, ActualLrpState.RUNNING, "g0", 3)), List.of(),
                TransactionSnapshot.NONE, 0);
        assertThat(backends("web.example.com")).containsExactly("g0@10.0.0.1:61000");
    }

    @Test
    void twoLrpsWithOneHostnameShareIt() {
        desire("blue", WEB, 0);
        desire("green", WEB, 0);
        state.apply(created(row("blue", 0, ActualLrpState.RUNNING, "b0", 3)), 0);
        state.apply(created(row("green", 0, ActualLrpState.RUNNING, "g0", 3)), 0);
        assertThat(backends("web.example.com")).containsExactly("b0@10.0.0.1:61000", "g0@10.0.0.1:61000");
    }

    @Test
    void aRebuildKeepsWhatWasAskedToStopAndTheFingerprintCountsOnlyWhatRoutes() {
        state.reset(List.of(lrp("web", WEB, 4)), List.of(row("web", 0, ActualLrpState.RUNNING, "g0", 3),
                row("web", 1, ActualLrpState.RUNNING, "g1", 3), row("web", 2, ActualLrpState.CRASHED, null, 7)),
                List.of("g1"), TransactionSnapshot.NONE, 0);
        assertThat(backends("web.example.com")).containsExactly("g0@10.0.0.1:61000");
        assertThat(state.fingerprint().rows()).as("the LRP and one instance").isEqualTo(2);

        state.apply(created(row("web", 1, ActualLrpState.RUNNING, "g1", 9)), 0);
        assertThat(backends("web.example.com")).containsExactly("g0@10.0.0.1:61000");
    }

    /**
     * A row deleted before a rebuild's read is not held; the events of its past that the feed delivers after the
     * rebuild were written by transactions the read saw, and must not put it back (they did, until its removal
     * followed, seconds later with the feed behind: a router that sent requests to a stopped instance).
     */
    @Test
    void aRebuildDropsTheEventsOfTransactionsItsReadSawAndAppliesTheRest() {
        state.reset(List.of(lrp("web", WEB, 4)), List.of(row("web", 0, ActualLrpState.RUNNING, "g0", 3)), List.of(),
                TransactionSnapshot.parse("100:110:104"), 0);

        state.apply(changed(row("web", 1, ActualLrpState.CLAIMED, "g1", 1), row("web", 1, ActualLrpState.RUNNING, "g1",
                2)), 99, 0);
        assertThat(backends("web.example.com")).as("a row deleted before the read stays out")
                .containsExactly("g0@10.0.0.1:61000");
        state.apply(new Seen.ActualChange(row("web", 1, ActualLrpState.RUNNING, "g1", 2), null), 102, 0);
        state.apply(new Seen.DesiredChange(lrp("web", WEB, 3), null), 103, 0);
        assertThat(backends("web.example.com")).as("a removal of the row and of the LRP, both seen")
                .containsExactly("g0@10.0.0.1:61000");

        state.apply(created(row("web", 2, ActualLrpState.RUNNING, "g2", 2)), 104, 0);
        state.apply(created(row("web", 3, ActualLrpState.RUNNING, "g3", 2)), 110, 0);
        state.apply(created(row("web", 4, ActualLrpState.RUNNING, "g4", 2)), 0, 0);
        assertThat(backends("web.example.com")).as("running at the read, later, or not known: applied")
                .containsExactly("g0@10.0.0.1:61000", "g2@10.0.0.1:61002", "g3@10.0.0.1:61003", "g4@10.0.0.1:61004");
    }

    /**
     * An LRP's rows loaded when it became routed are judged by that load's snapshot; its desired changes by the
     * rebuild's, since a load reads no desired LRP: a removal the load saw still removes it.
     */
    @Test
    void rowsAreJudgedByTheirLoadsSnapshotAndDesiredChangesByTheRebuilds() {
        state.reset(List.of(), List.of(), List.of(), TransactionSnapshot.parse("100:100:"), 0);
        Seen.Lrp routed = lrp("web", WEB, 1);
        state.apply(new Seen.DesiredChange(lrp("web", null, 0), routed), 120, 0);
        assertThat(state.takeToLoad()).containsExactly("web");
        state.loaded("web", List.of(row("web", 0, ActualLrpState.RUNNING, "g0", 3)), List.of(),
                TransactionSnapshot.parse("130:130:"), 0);

        state.apply(created(row("web", 1, ActualLrpState.RUNNING, "g1", 2)), 125, 0);
        assertThat(backends("web.example.com")).as("seen by the load").containsExactly("g0@10.0.0.1:61000");
        state.apply(created(row("web", 1, ActualLrpState.RUNNING, "g1", 2)), 131, 0);
        assertThat(backends("web.example.com")).containsExactly("g0@10.0.0.1:61000", "g1@10.0.0.1:61001");

        state.apply(new Seen.DesiredChange(routed, null), 126, 0);
        assertThat(state.table().routes()).as("the load read no desired LRP").isEmpty();
    }

    private void desire(String processGuid, String routes, long version) {
        state.apply(new Seen.DesiredChange(null, lrp(processGuid, routes, version)), 0);
        state.takeToLoad();
    }

    private List<String> backends(String host) {
        HostRoute route = state.table().route(host);
        return route == null ? List.of() : route.backends().stream()
                .map(b -> b.instanceGuid() + "@" + b.address() + ":" + b.port()).toList();
    }

    static Seen.Lrp lrp(String processGuid, String routes, long version) {
        return new Seen.Lrp(processGuid, routes, LRP_EPOCH, version);
    }

    static Seen.Row row(String processGuid, int index, ActualLrpState state, String guid, long version) {
        boolean net = state == ActualLrpState.RUNNING;
        return new Seen.Row(processGuid, index, false, state, guid, net ? "10.0.0.1" : null,
                net ? Map.of(8080, 61000 + index, 9090, 1) : Map.of(), ROW_EPOCH, version);
    }

    static Seen.ActualChange created(Seen.Row row) {
        return new Seen.ActualChange(null, row);
    }

    static Seen.ActualChange changed(Seen.Row before, Seen.Row after) {
        return new Seen.ActualChange(before, after);
    }
}
