package io.drover.verify.compose;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LeadersTest {

    private static final String ROWS = """
            converger|converger-5f0c1c7e-2a51-4d7e-9c1e-6b1b1b8a0e11
            auctioneer|auctioneer-0d3b8a52-4bb5-4a39-a6ff-1c3c6f0b7d20
            """;

    @Test
    void theHolderOfALockIsReadFromItsRow() {
        assertThat(Leaders.holder(ROWS, "converger")).contains("converger-5f0c1c7e-2a51-4d7e-9c1e-6b1b1b8a0e11");
        assertThat(Leaders.holder(ROWS, "auctioneer")).contains("auctioneer-0d3b8a52-4bb5-4a39-a6ff-1c3c6f0b7d20");
    }

    @Test
    void anExpiredLockHasNoRowAndSoNoHolder() {
        assertThat(Leaders.holder("auctioneer|auctioneer-1\n", "converger")).isEmpty();
        assertThat(Leaders.holder("", "converger")).isEmpty();
    }

    @Test
    void theLeaderIsTheContainerWhoseLogNamesTheHolder() {
        Map<String, String> logs = Map.of(
                "converger-1", "... leader-elected lock=converger holder=converger-aaa\n"
                        + "... leader-revoked lock=converger holder=converger-aaa\n",
                "converger-2", "... leader-elected lock=converger holder=converger-bbb\n");

        assertThat(Leaders.among("converger-bbb", logs)).contains("converger-2");
        assertThat(Leaders.among("converger-aaa", logs)).contains("converger-1");
    }

    @Test
    void aHolderNoLogNamesOrTwoLogsNameIsNoLeaderToTouch() {
        assertThat(Leaders.among("converger-ccc", Map.of("converger-1", "holder=converger-aaa"))).isEmpty();
        assertThat(Leaders.among("converger-aaa", Map.of("converger-1", "holder=converger-aaa",
                "converger-2", "holder=converger-aaa"))).isEmpty();
    }
}
