package io.drover.auctioneer.round;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.json.Json;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.messaging.LrpStartRequested;
import io.drover.model.messaging.Topics;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class StartRequestsTest {

    private long offset;

    @Test
    void aRoundAsksForEachInstanceOnceInTheOrderFirstAskedFor() {
        var keys = StartRequests.keys(List.of(request("web", 0, 1, 2), request("api", 0), request("web", 2, 3),
                request("web", 1)));

        assertThat(keys).containsExactly(ActualLrpKey.of("web", 0), ActualLrpKey.of("web", 1),
                ActualLrpKey.of("web", 2), ActualLrpKey.of("api", 0), ActualLrpKey.of("web", 3));
    }

    @Test
    void unreadableRequestsAreDroppedAndTheRestOfTheRoundGoesOn() {
        var keys = StartRequests.keys(List.of(record("not json"), record(null), record("{\"indices\":[1]}"),
                record("{\"process_guid\":\"x\"}"), request("web", 0)));

        assertThat(keys).containsExactly(ActualLrpKey.of("web", 0));
    }

    @Test
    void unknownFieldsAreIgnored() {
        var keys = StartRequests.keys(List.of(record("{\"process_guid\":\"web\",\"indices\":[4],\"priority\":9}")));

        assertThat(keys).containsExactly(ActualLrpKey.of("web", 4));
    }

    @Test
    void tasksAreAskedForOnceEachAndAreNoInstances() {
        var records = List.of(tasks("t1", "t2"), request("web", 0), tasks("t2", "t3"), record("not json"));

        assertThat(StartRequests.taskGuids(records)).containsExactly("t1", "t2", "t3");
        assertThat(StartRequests.keys(records)).containsExactly(ActualLrpKey.of("web", 0));
    }

    private ConsumerRecord<String, byte[]> tasks(String... guids) {
        return record(Json.write(LrpStartRequested.forTasks(UUID.randomUUID(), "d", List.of(guids), "test")));
    }

    private ConsumerRecord<String, byte[]> request(String guid, Integer... indices) {
        return record(Json.write(new LrpStartRequested(UUID.randomUUID(), guid, "d", List.of(indices), "test")));
    }

    private ConsumerRecord<String, byte[]> record(String value) {
        return new ConsumerRecord<>(Topics.START_REQUESTS, 0, offset++, "key",
                value == null ? null : value.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
