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

    @org.junit.jupiter.api.Test
    void leavesTheBenchmarksOwnClientsOutOfDroversShareAndKeepsThreadsThatEnded() throws Exception {
        CpuAccount before = CpuAccount.now();
        java.util.concurrent.ExecutorService clients = BenchThreads.pool(1);
        long[] sink = new long[1];
        clients.submit(() -> spin(sink)).get();
        clients.shutdown();
        clients.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
        Thread ended = new Thread(() -> spin(sink), "short-lived-worker");
        ended.start();
        ended.join();
        Thread.sleep(300); // the account's sampler has seen both threads before they ended
        CpuAccount after = CpuAccount.now();
        CpuAccount.Usage usage = after.usage(before);
        assertThat(usage.bench()).as("the client's CPU").isPositive();
        assertThat(usage.droverJvm()).isEqualTo(usage.jvm() - usage.bench());
        assertThat(after.since(before)).contains(CpuAccount.BENCHMARK).contains("short-lived-worker");
        assertThat(usage.vmSplit(1)).startsWith("of which GC ").contains("JIT").contains("other VM threads");
    }

    @org.junit.jupiter.api.Test
    void countsTheBytesTheServicesThreadsAllocateAndLeavesTheClientsOut() throws Exception {
        CpuAccount before = CpuAccount.now();
        java.util.concurrent.ExecutorService clients = BenchThreads.pool(1);
        clients.submit(() -> allocate(400)).get();
        clients.shutdown();
        allocate(100); // this thread stands for a service's
        CpuAccount.Usage usage = CpuAccount.now().usage(before);
        // 100 MB from this thread, a little from the account's own sampler; the client's 400 MB are not in it
        assertThat(usage.allocated()).isBetween(100_000_000L, 300_000_000L);
    }

    /**
     * Another PostgreSQL server on the same machine (another engineer's build) is not the cluster's: stand-ins named
     * {@code postgres} (a "server" with one idle "backend", and a busy process of another "server") show it.
     */
    @org.junit.jupiter.api.Test
    void countsOnlyTheClustersOwnPostgresServer(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path postgres = dir.resolve("postgres");
        java.nio.file.Files.writeString(postgres, """
                #!/bin/sh
                case "$1" in
                  server) "$0" idle & wait ;;
                  idle) exec sleep 30 ;;
                  busy) while :; do :; done ;;
                esac
                """);
        postgres.toFile().setExecutable(true);
        Process server = new ProcessBuilder(postgres.toString(), "server").start();
        Process other = new ProcessBuilder(postgres.toString(), "busy").start();
        try {
            long backend = 0;
            for (int i = 0; i < 100 && backend == 0; i++) {
                Thread.sleep(20);
                backend = server.toHandle().children().findFirst().map(ProcessHandle::pid).orElse(0L);
            }
            CpuAccount.onlyPostgresServerOf(backend);
            CpuAccount before = CpuAccount.now();
            Thread.sleep(1_000);
            CpuAccount.Usage usage = CpuAccount.now().usage(before);
            assertThat(usage.postgres()).as("the other server's busy second").isLessThan(0.2);
        } finally {
            other.destroyForcibly();
            server.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            server.destroyForcibly();
        }
    }

    private static long allocate(int megabytes) {
        long sum = 0;
        for (int i = 0; i < megabytes; i++) {
            byte[] chunk = new byte[1_000_000];
            chunk[i % chunk.length] = 1;
            sum += chunk[i % chunk.length];
        }
        return sum;
    }

    private static void spin(long[] sink) {
        long x = 0;
        for (long i = 0; i < 100_000_000L; i++) {
            x += i % 7;
        }
        sink[0] += x;
    }
}
