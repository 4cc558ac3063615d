package io.drover.model.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EventPositionTest {

    @Test
    void aPositionIsItsTextAndBack() {
        EventPosition position = new EventPosition(749, 12_345);
        assertThat(position.text()).isEqualTo("00000000000002ed-0000000000003039");
        assertThat(EventPosition.parse(position.text())).contains(position);
        EventPosition huge = new EventPosition(-2, Long.MAX_VALUE); // an xid8 past 2^63 is a negative long
        assertThat(EventPosition.parse(huge.text())).contains(huge);
    }

    @Test
    void textsSortAsPositionsDoTransactionFirst() {
        List<EventPosition> positions = new ArrayList<>(List.of(new EventPosition(2, 1), new EventPosition(1, 900),
                new EventPosition(1, 5), new EventPosition(-1, 3), new EventPosition(16, 0), new EventPosition(2, 10)));
        Collections.shuffle(positions);
        List<EventPosition> byPosition = positions.stream().sorted().toList();
        List<String> byText = positions.stream().map(EventPosition::text).sorted().toList();
        assertThat(byPosition).extracting(EventPosition::text).isEqualTo(byText);
        assertThat(byPosition).containsExactly(new EventPosition(1, 5), new EventPosition(1, 900),
                new EventPosition(2, 1), new EventPosition(2, 10), new EventPosition(16, 0), new EventPosition(-1, 3));
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "42", "00000000000002ed:0000000000003039", "00000000000002ED-0000000000003039",
            "0000000000002ed-0000000000003039", "00000000000002ed-8000000000000000",
            " 00000000000002ed-0000000000003039",
            "00000000000002ed-0000000000003039\n" })
    void anythingElseIsNoPosition(String text) {
        assertThat(EventPosition.parse(text)).isEmpty();
    }

    @Test
    void justBeforeIsThePositionWhoseEventsAfterStartWithThisOne() {
        EventPosition position = new EventPosition(7, 100);
        assertThat(position.justBefore()).isEqualTo(new EventPosition(7, 99));
        assertThat(position.isAfter(position.justBefore())).isTrue();
        assertThat(EventPosition.START.justBefore()).isEqualTo(EventPosition.START);
    }
}
