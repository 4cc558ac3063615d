package io.drover.router.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.lrp.ActualLrpState;
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
        state.loaded("web", List.of(row("web", 0, ActualLrpState.RUNNING, "g0", 3)), List.of(), 0);
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
                List.of("g1"), 0);
        assertThat(backends("web.example.com")).containsExactly("g0@10.0.0.1:61000");
        assertThat(state.fingerprint().rows()).as("the LRP and one instance").isEqualTo(2);

        state.apply(created(row("web", 1, ActualLrpState.RUNNING, "g1", 9)), 0);
        assertThat(backends("web.example.com")).containsExactly("g0@10.0.0.1:61000");
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
