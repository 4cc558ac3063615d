package io.drover.router.feed;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.lrp.ActualLrpState;
import io.drover.model.messaging.EventPosition;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.Topics;
import io.drover.router.table.Seen;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** What a lifecycle record tells the router, and which records it does not even parse. */
class ChangesTest {

    static final UUID EPOCH = UUID.randomUUID();

    @Test
    void anInstanceOfARoutedLrpIsParsedIntoItsRow() {
        Seen seen = Changes.of(actualChanged("web", running("web")), Set.of("web")::contains);

        assertThat(seen).isEqualTo(new Seen.ActualChange(null, new Seen.Row("web", 0, false, ActualLrpState.RUNNING,
                "g0", "10.0.0.1", Map.of(8080, 61000), EPOCH, 3)));
    }

    @Test
    void anInstanceOfAnUnroutedLrpIsNotParsedAtAll() {
        byte[] notJson = "not json: parsing it would throw".getBytes(StandardCharsets.UTF_8);

        assertThat(Changes.of(actualChanged("worker", notJson), Set.of("web")::contains)).isNull();
    }

    @Test
    void aDesiredChangeIsParsedWhetherOrNotItsLrpIsRoutedYet() {
        String lrp = "{\"process_guid\":\"api\",\"routes\":{\"cf-router\":[{\"hostnames\":[\"api.example.com\"],"
                + "\"port\":8080}]},\"modification_tag\":{\"epoch\":\"" + EPOCH + "\",\"index\":1}}";
        byte[] value = ("{\"type\":\"" + LifecycleEvent.DESIRED_LRP_CHANGED + "\",\"before\":null,\"after\":" + lrp
                + "}").getBytes(StandardCharsets.UTF_8);

        Seen seen = Changes.of(record(LifecycleEvent.DESIRED_LRP_CHANGED, "api", value), guid -> false);

        assertThat(seen).isInstanceOf(Seen.DesiredChange.class);
        assertThat(((Seen.DesiredChange) seen).after().processGuid()).isEqualTo("api");
    }

    @Test
    void anEventsTransactionIsReadFromItsPositionHeader() {
        ConsumerRecord<String, byte[]> record = actualChanged("web", running("web"));
        assertThat(Changes.txId(record)).as("no header").isZero();

        record.headers().add(Topics.EVENT_POSITION_HEADER,
                new EventPosition(0x2e5, 12345).text().getBytes(StandardCharsets.UTF_8));
        assertThat(Changes.txId(record)).isEqualTo(0x2e5);
    }

    static byte[] running(String processGuid) {
        return ("{\"type\":\"" + LifecycleEvent.ACTUAL_LRP_CHANGED + "\",\"before\":null,\"after\":{\"process_guid\":\""
                + processGuid + "\",\"index\":0,\"state\":\"RUNNING\",\"instance_guid\":\"g0\",\"address\":\"10.0.0.1\","
                + "\"ports\":[{\"container_port\":8080,\"host_port\":61000}],\"modification_tag\":{\"epoch\":\"" + EPOCH
                + "\",\"index\":3}}}").getBytes(StandardCharsets.UTF_8);
    }

    static ConsumerRecord<String, byte[]> actualChanged(String processGuid, byte[] value) {
        return record(LifecycleEvent.ACTUAL_LRP_CHANGED, processGuid, value);
    }

    static ConsumerRecord<String, byte[]> record(String type, String key, byte[] value) {
        ConsumerRecord<String, byte[]> record = new ConsumerRecord<>(Topics.LIFECYCLE_EVENTS, 0, 0, key, value);
        record.headers().add(Topics.EVENT_TYPE_HEADER, type.getBytes(StandardCharsets.UTF_8));
        return record;
    }
}
