package io.drover.verify.check;

import static io.drover.verify.check.Fixtures.actual;
import static io.drover.verify.check.Fixtures.changed;
import static io.drover.verify.check.Fixtures.created;
import static io.drover.verify.check.Fixtures.meta;
import static io.drover.verify.check.Fixtures.removed;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.verify.history.Entry;
import io.drover.verify.history.History;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventsTest {

    private static final String UNCLAIMED = actual("a", 0, null, null, "UNCLAIMED", 1, false, 1);
    private static final String CLAIMED = actual("a", 0, "i1", "cell-z1", "CLAIMED", 1, false, 2);
    private static final String RUNNING = actual("a", 0, "i1", "cell-z1", "RUNNING", 1, false, 3);
    private static final String RUNNING_OTHER = actual("a", 0, "i2", "cell-z2", "RUNNING", 1, false, 4);
    private static final String CRASHED = actual("a", 0, null, null, "CRASHED", 1, false, 4);

    private static List<Anomaly> check(Entry... events) {
        List<Entry> all = new ArrayList<>(List.of(meta("a"), new Entry.Stream(1, "opened", 0, null),
                new Entry.Phase("workload", 10)));
        all.addAll(List.of(events));
        return Events.check(new History(all)).anomalies();
    }

    @Test
    void anInstancesWholeLifeInOrderIsFine() {
        assertThat(check(created(1, 1, UNCLAIMED, 100), changed(1, 2, UNCLAIMED, CLAIMED, 200),
                changed(1, 3, CLAIMED, RUNNING, 300), changed(1, 4, RUNNING, CRASHED, 400),
                changed(1, 5, CRASHED, UNCLAIMED, 500), removed(1, 6, UNCLAIMED, 600), created(1, 7, UNCLAIMED, 700)))
                .isEmpty();
    }

    @Test
    void anEventRepeatedByTheRelayIsPassedOver() {
        assertThat(check(created(1, 1, UNCLAIMED, 100), created(1, 2, UNCLAIMED, 100),
                changed(1, 3, UNCLAIMED, CLAIMED, 200), changed(1, 4, UNCLAIMED, CLAIMED, 200),
                changed(1, 5, CLAIMED, RUNNING, 300))).isEmpty();
    }

    @Test
    void aMissingEventIsCaught() {
        assertThat(check(created(1, 1, UNCLAIMED, 100), changed(1, 3, CLAIMED, RUNNING, 300))).singleElement()
                .satisfies(a -> assertThat(a.message()).contains("missing or out of order"));
    }

    @Test
    void aMissingCreationIsCaught() {
        assertThat(check(changed(1, 2, UNCLAIMED, CLAIMED, 200))).singleElement()
                .satisfies(a -> assertThat(a.message()).contains("its creation is missing"));
        assertThat(check(created(1, 1, UNCLAIMED, 100), removed(1, 2, UNCLAIMED, 200),
                changed(1, 3, UNCLAIMED, CLAIMED, 300))).singleElement()
                .satisfies(a -> assertThat(a.message()).contains("a change of a removed record"));
    }

    @Test
    void eventsOutOfOrderAreCaught() {
        assertThat(check(created(1, 1, UNCLAIMED, 100), changed(1, 3, CLAIMED, RUNNING, 200),
                changed(1, 2, UNCLAIMED, CLAIMED, 300))).isNotEmpty();
    }

    @Test
    void aTransitionTheTableForbidsIsCaught() {
        assertThat(check(created(1, 1, RUNNING, 100), changed(1, 2, RUNNING, RUNNING_OTHER, 200))).singleElement()
                .satisfies(a -> assertThat(a.message()).contains("does not allow RUNNING i1 -> RUNNING i2"));
        assertThat(check(created(1, 1, UNCLAIMED, 100), changed(1, 2, UNCLAIMED, CRASHED, 200))).hasSize(1);
    }

    @Test
    void aStreamOpenedAfterTheWorkloadBeganMayJoinAnInstanceMidLife() {
        assertThat(Events.check(History.of(meta("a"), new Entry.Phase("workload", 10),
                new Entry.Stream(2, "opened", 5_000, null), changed(2, 9, CLAIMED, RUNNING, 6000))).anomalies())
                .isEmpty();
    }

    @Test
    void aTwinHasAChainOfItsOwn() {
        String twin = actual("a", 0, "i1", "cell-z1", "RUNNING", 1, true, 1);
        assertThat(check(created(1, 1, UNCLAIMED, 100), changed(1, 2, UNCLAIMED, CLAIMED, 200),
                changed(1, 3, CLAIMED, RUNNING, 300),
                changed(1, 4, RUNNING, actual("a", 0, null, null, "UNCLAIMED", 1, false, 4), 400),
                created(1, 5, twin, 400), removed(1, 6, twin, 900))).isEmpty();
    }

    @Test
    void anEventIdThatDoesNotRiseIsCaught() {
        assertThat(check(created(1, 12, UNCLAIMED, 100), changed(1, 11, UNCLAIMED, CLAIMED, 200))).singleElement()
                .satisfies(a -> assertThat(a.message()).contains("event id").contains("after"));
        assertThat(check(created(1, 9, UNCLAIMED, 100), changed(1, 10, UNCLAIMED, CLAIMED, 200))).isEmpty();
    }

    @Test
    void theKafkaTopicIsAStreamOfItsOwnAndAHoleInItIsCaught() {
        List<Anomaly> anomalies = Events.check(History.of(meta("a"), new Entry.Stream(1, "opened", 0, null),
                new Entry.Stream(-1, "opened", 0, "Kafka"), new Entry.Phase("workload", 10),
                created(1, 1, UNCLAIMED, 100), created(-1, 0, UNCLAIMED, 120),
                changed(1, 2, UNCLAIMED, CLAIMED, 200),
                changed(1, 3, CLAIMED, RUNNING, 300), changed(-1, 0, CLAIMED, RUNNING, 320))).anomalies();

        assertThat(anomalies).singleElement().satisfies(a -> assertThat(a.message()).contains("missing or out of order"));
    }

    private static String lrp(String epoch, long index) {
        return "{\"process_guid\": \"a\", \"instances\": 1, \"modification_tag\": {\"epoch\": \"" + epoch
                + "\", \"index\": " + index + "}}";
    }

    private static Entry.Event desired(long id, String name, String data, double at) {
        return Fixtures.event(1, id, name, data, at);
    }

    @Test
    void aDesiredLrpsLivesInOrderAreFine() {
        assertThat(check(desired(1, "desired_lrp_created", "{\"desired_lrp\": " + lrp("e1", 0) + "}", 100),
                desired(2, "desired_lrp_changed", "{\"desired_lrp_before\": " + lrp("e1", 0)
                        + ", \"desired_lrp_after\": " + lrp("e1", 1) + "}", 200),
                desired(3, "desired_lrp_removed", "{\"desired_lrp\": " + lrp("e1", 1) + "}", 300),
                desired(4, "desired_lrp_created", "{\"desired_lrp\": " + lrp("e2", 0) + "}", 400))).isEmpty();
    }

    @Test
    void aDesiredLrpCreatedAgainBeforeItsRemovalIsCaught() {
        assertThat(check(desired(1, "desired_lrp_created", "{\"desired_lrp\": " + lrp("e1", 0) + "}", 100),
                desired(2, "desired_lrp_created", "{\"desired_lrp\": " + lrp("e2", 0) + "}", 200),
                desired(3, "desired_lrp_removed", "{\"desired_lrp\": " + lrp("e1", 0) + "}", 300)))
                .singleElement().satisfies(a -> assertThat(a.message()).contains("its removal is missing"));
    }

    @Test
    void aDesiredLrpsChangeOfAnotherLifeOrAnOlderVersionIsCaught() {
        assertThat(check(desired(1, "desired_lrp_created", "{\"desired_lrp\": " + lrp("e1", 0) + "}", 100),
                desired(2, "desired_lrp_removed", "{\"desired_lrp\": " + lrp("e2", 0) + "}", 200)))
                .singleElement().satisfies(a -> assertThat(a.message()).contains("missing or out of order"));
        assertThat(check(desired(1, "desired_lrp_created", "{\"desired_lrp\": " + lrp("e1", 3) + "}", 100),
                desired(2, "desired_lrp_removed", "{\"desired_lrp\": " + lrp("e1", 2) + "}", 200)))
                .singleElement().satisfies(a -> assertThat(a.message()).contains("out of order"));
        assertThat(check(desired(2, "desired_lrp_removed", "{\"desired_lrp\": " + lrp("e1", 0) + "}", 200)))
                .singleElement().satisfies(a -> assertThat(a.message()).contains("its creation is missing"));
    }
}
