package io.drover.model.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** What a reader may commit: everything handed over, but never past the lowest offset whose work is still in hand. */
class InHandTest {

    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    private final InHand inHand = new InHand();

    @Test
    void aBatchNothingWasKeptOfIsCommittedPastItsLastRecord() {
        inHand.handedOver(records(0, 3, 7));

        assertThat(commit()).isEqualTo(Map.of(P0, 8L));
    }

    @Test
    void aKeptRecordHoldsItsPartitionBackUntilItIsDoneAndOnlyItsPartition() {
        List<ConsumerRecord<String, byte[]>> p0 = records(0, 3, 7);
        TopicReader.Kept five = inHand.keep(p0.get(2));
        TopicReader.Kept six = inHand.keep(p0.get(3));
        inHand.handedOver(p0);
        inHand.handedOver(records(1, 0, 1));

        assertThat(commit()).isEqualTo(Map.of(P0, 5L, P1, 2L));
        six.done();
        assertThat(commit()).as("five still in hand: nothing moved").isEmpty();
        five.done();
        five.done();
        assertThat(commit()).isEqualTo(Map.of(P0, 8L));
        assertThat(commit()).as("nothing new").isEmpty();
    }

    @Test
    void workDoneBeforeTheHandlerReturnedIsCommittedWithTheBatch() {
        List<ConsumerRecord<String, byte[]>> batch = records(0, 0, 2);
        inHand.keep(batch.get(1)).done();
        inHand.handedOver(batch);

        assertThat(commit()).isEqualTo(Map.of(P0, 3L));
    }

    @Test
    void aBatchGivenUpLetsGoOfWhatWasKeptOfIt() {
        List<ConsumerRecord<String, byte[]>> batch = records(0, 0, 2);
        inHand.keep(batch.get(0));
        inHand.forget(batch);
        inHand.handedOver(batch);

        assertThat(commit()).isEqualTo(Map.of(P0, 3L));
    }

    private Map<TopicPartition, Long> commit() {
        Map<TopicPartition, OffsetAndMetadata> offsets = inHand.toCommit();
        inHand.committed(offsets);
        return offsets.entrySet().stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
                e -> e.getValue().offset()));
    }

    private static List<ConsumerRecord<String, byte[]>> records(int partition, long from, long to) {
        return LongStream.rangeClosed(from, to).mapToObj(o -> new ConsumerRecord<String, byte[]>("t", partition, o,
                "k", new byte[0])).toList();
    }
}
