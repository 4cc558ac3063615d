package io.drover.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CpuAccountTest {

    @ParameterizedTest
    @CsvSource(delimiterString = "=>", textBlock = """
            rep-worker-7                                             => rep-worker
            http-nio-127.0.0.1-41233-exec-12                         => receptor http
            kafka-producer-network-thread | rep-service-producer-1   => kafka producers
            data-plane-kafka-request-handler-3                       => kafka broker
            quorum-controller-1-event-handler                        => kafka broker
            auctionRoundsContainer-C-1                               => kafka listeners (auctionRoundsContainer)
            outbox-relay                                             => outbox-relay
            convergence-loop                                         => convergence-loop
            """)
    void groupsThreadsByPoolWithoutTheirNumbers(String thread, String group) {
        assertThat(CpuAccount.group(thread)).isEqualTo(group);
    }

    @org.junit.jupiter.api.Test
    void accountsThisJvmsOwnWork() {
        CpuAccount before = CpuAccount.now();
        long x = 0;
        for (long i = 0; i < 200_000_000L; i++) {
            x += i % 7;
        }
        String line = CpuAccount.now().since(before);
        assertThat(x).isPositive();
        assertThat(line).startsWith("CPU over").contains("this JVM").contains("main ");
    }
}
