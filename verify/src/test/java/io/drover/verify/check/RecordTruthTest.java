package io.drover.verify.check;

import static io.drover.verify.check.Fixtures.actual;
import static io.drover.verify.check.Fixtures.answer;
import static io.drover.verify.check.Fixtures.listedProbe;
import static io.drover.verify.check.Fixtures.listing;
import static io.drover.verify.check.Fixtures.meta;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.verify.history.Entry;
import io.drover.verify.history.History;
import io.drover.verify.history.Kinds;
import org.junit.jupiter.api.Test;

class RecordTruthTest {

    private static final String V1 = actual("a", 0, "i1", "cell-z1", "RUNNING", 1, false, 3);
    private static final String V2 = actual("a", 0, "i1", "cell-z1", "RUNNING", 2, false, 3);

    /** The create gave label a-c1 version 1, the deployment gave a-d1 version 2. */
    private static final Entry.Call CREATE = new Entry.Call("c1", Kinds.DESIRE, "a", "POST", "/v1/desired_lrps", null,
            "{\"process_guid\": \"a\", \"env\": [{\"name\": \"LABEL\", \"value\": \"a-c1\"}]}", 0, 10, 201, "\"e:1\"",
            null, null, -1);
    private static final Entry.Call DEPLOY = new Entry.Call("c1", Kinds.DEPLOY, "a", "POST",
            "/v1/desired_lrps/a/deployments", null, "{\"env\": [{\"name\": \"LABEL\", \"value\": \"a-d1\"}]}", 20, 30,
            201, null, "{\"to_version\": 2}", null, -1);

    @Test
    void anInstanceAnsweringWhatItsRecordStatesIsFine() {
        assertThat(RecordTruth.check(History.of(meta("a"), CREATE, DEPLOY, listing("a", 1, 1000, V2),
                listedProbe(1, 1010, "a", 0, "i1", false, answer("a", 0, "i1", "a-d1")), listing("a", 2, 2000, V2)))
                .anomalies()).isEmpty();
    }

    @Test
    void anInstanceRunningAnotherVersionThanItsRecordStatesIsCaught() {
        CheckResult result = RecordTruth.check(History.of(meta("a"), CREATE, DEPLOY, listing("a", 1, 1000, V2),
                listedProbe(1, 1010, "a", 0, "i1", false, answer("a", 0, "i1", "a-c1")), listing("a", 2, 2000, V2)));
        assertThat(result.anomalies()).singleElement().satisfies(a -> assertThat(a.message())
                .contains("states definition version 2, the instance runs version 1"));
    }

    @Test
    void anotherInstanceAnsweringAtTheRecordsAddressIsCaught() {
        assertThat(RecordTruth.check(History.of(meta("a"), CREATE, listing("a", 1, 1000, V1),
                listedProbe(1, 1010, "a", 0, "i1", false, answer("a", 0, "i9", "a-c1")), listing("a", 2, 2000, V1)))
                .anomalies()).singleElement().satisfies(a -> assertThat(a.message()).contains("instance i9 answers"));
    }

    @Test
    void aRecordThatChangedAroundTheProbeIsNotJudged() {
        String moved = actual("a", 0, "i1", "cell-z1", "RUNNING", 1, false, 4);
        assertThat(RecordTruth.check(History.of(meta("a"), CREATE, listing("a", 1, 1000, V1),
                listedProbe(1, 1010, "a", 0, "i1", false, answer("a", 0, "i9", "a-c1")), listing("a", 2, 2000, moved)))
                .anomalies()).isEmpty();
        assertThat(RecordTruth.check(History.of(meta("a"), CREATE, listing("a", 1, 1000, V1),
                listedProbe(1, 1010, "a", 0, "i1", false, answer("a", 0, "i9", "a-c1")))).anomalies()).isEmpty();
    }

    @Test
    void aLabelOfAnUnansweredDeploymentIsNotJudged() {
        assertThat(RecordTruth.check(History.of(meta("a"), CREATE, listing("a", 1, 1000, V2),
                listedProbe(1, 1010, "a", 0, "i1", false, answer("a", 0, "i1", "a-d7")), listing("a", 2, 2000, V2)))
                .anomalies()).isEmpty();
    }
}
