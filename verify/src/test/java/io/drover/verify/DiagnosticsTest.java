package io.drover.verify;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DiagnosticsTest {

    private static final String DUMP = """
            threads:
            "deployer" WAITING on java.util.concurrent.CompletableFuture$Signaller@1
                at java.base/jdk.internal.misc.Unsafe.park(Native Method)
                at java.base/java.util.concurrent.CompletableFuture.join(CompletableFuture.java:2117)
                at io.drover.converger.deploy.Deployer.tick(Deployer.java:52)
            "http-nio-1-exec-1" WAITING
                at java.base/jdk.internal.misc.Unsafe.park(Native Method)
            "leader-converger" TIMED_WAITING
                at java.base/java.lang.Thread.sleep(Native Method)
            database sessions (not idle), then locks waited for:
              pid=7 application_name=PostgreSQL JDBC Driver state=active
            the log's last lines from Drover's loops or with a warning:
              12:00:00.000 INFO [deployer] io.drover.converger.deploy.Deployer : deployer-verdict-skipped
            """;

    @Test
    void itPrintsWhereEachLoopWaitsAndItsWayThereThroughDroversCodeThenEverythingAfterTheThreads() {
        assertThat(Diagnostics.printed(DUMP)).containsExactly(
                "\"deployer\" WAITING on java.util.concurrent.CompletableFuture$Signaller@1",
                "    at java.base/jdk.internal.misc.Unsafe.park(Native Method)",
                "    at io.drover.converger.deploy.Deployer.tick(Deployer.java:52)",
                "\"leader-converger\" TIMED_WAITING",
                "    at java.base/java.lang.Thread.sleep(Native Method)",
                "database sessions (not idle), then locks waited for:",
                "  pid=7 application_name=PostgreSQL JDBC Driver state=active",
                "the log's last lines from Drover's loops or with a warning:",
                "  12:00:00.000 INFO [deployer] io.drover.converger.deploy.Deployer : deployer-verdict-skipped");
    }
}
