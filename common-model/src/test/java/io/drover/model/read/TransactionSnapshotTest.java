package io.drover.model.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TransactionSnapshotTest {

    @ParameterizedTest(name = "{0} saw {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            100:105:101,103 | 99  | true
            100:105:101,103 | 100 | true
            100:105:101,103 | 101 | false
            100:105:101,103 | 102 | true
            100:105:101,103 | 103 | false
            100:105:101,103 | 104 | true
            100:105:101,103 | 105 | false
            100:105:101,103 | 250 | false
            100:100:        | 99  | true
            100:100:        | 100 | false
            0:0:            | 1   | false
            """)
    void aSnapshotSawTheTransactionsThatEndedBeforeIt(String text, long txId, boolean saw) {
        assertThat(TransactionSnapshot.parse(text.strip()).saw(txId)).isEqualTo(saw);
    }

    @Test
    void itsTextIsPostgreSqlsAndNoneSawNothing() {
        assertThat(TransactionSnapshot.parse("100:105:103,101")).hasToString("100:105:101,103");
        assertThat(TransactionSnapshot.parse("18446744073709551000:18446744073709551001:"))
                .as("ids are unsigned").hasToString("18446744073709551000:18446744073709551001:");
        assertThat(TransactionSnapshot.NONE.saw(1)).isFalse();
        assertThatThrownBy(() -> TransactionSnapshot.parse("100:105")).isInstanceOf(IllegalArgumentException.class);
    }
}
