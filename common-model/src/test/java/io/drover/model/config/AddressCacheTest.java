package io.drover.model.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * A peer that comes back at another address (a PostgreSQL container restarted by Docker, a failover behind a DNS name)
 * is found within seconds: the JVM's default keeps a looked-up address 30 s and a failed lookup 10 s, during which
 * every new connection goes to the old address or to none (compose truth checker, seed 4127: 25 s of 503 after
 * PostgreSQL was back). Runs in a JVM of its own, started as a service is, since the JVM reads its cache policy once,
 * at its first lookup; names resolve from a hosts file the test rewrites ({@code jdk.net.hosts.file}). A name not
 * found is looked up again as soon: Docker's DNS forgets a stopped container's name until it starts again.
 */
class AddressCacheTest {

    private static final String NAME = "postgres.drover.test";

    @TempDir
    Path dir;

    @Test
    void aServiceLooksANameUpAgainWithinSecondsOfItsAddressMoving() throws Exception {
        long seconds = secondsUntilTheNewAddress("10.11.12.13 " + NAME, "resolved 10.11.12.13");
        assertThat(seconds).as("seconds until the new address was used (the JVM's default: up to 30)")
                .isLessThanOrEqualTo(12);
    }

    @Test
    void aNameThatWasNotFoundIsLookedUpAgainWithinSeconds() throws Exception {
        long seconds = secondsUntilTheNewAddress("10.11.12.13 another.drover.test", "resolved none");
        assertThat(seconds).as("seconds until the name was found (the JVM's default: up to 10)")
                .isLessThanOrEqualTo(5);
    }

    /** Starts the service with {@code hostsLine} in its hosts file, waits for its first answer, moves the name. */
    private long secondsUntilTheNewAddress(String hostsLine, String firstAnswer) throws Exception {
        Path hosts = dir.resolve("hosts");
        Files.writeString(hosts, hostsLine + "\n");
        Path moved = dir.resolve("moved");
        Path log = dir.resolve("child.log");
        Process child = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djdk.net.hosts.file=" + hosts, "-cp", System.getProperty("java.class.path"), Service.class.getName(),
                moved.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            awaitLine(log, firstAnswer, child);
            Files.writeString(hosts, "10.11.12.14 " + NAME + "\n");
            Files.writeString(moved, "now");
            assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("the child ends").isTrue();
            String out = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(out).as(out).contains("resolved 10.11.12.14 after the move");
            return Long.parseLong(out.replaceAll("(?s).*after the move in (\\d+) ms.*", "$1")) / 1000;
        } finally {
            child.destroyForcibly();
        }
    }

    private static void awaitLine(Path log, String line, Process child) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains(line)) {
                return;
            }
            assertThat(child.isAlive()).as(() -> read(log)).isTrue();
            Thread.sleep(50);
        }
        throw new AssertionError("no '" + line + "' in 90 s: " + read(log));
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** A service's start as far as the environment (the shared defaults apply there), then lookups. */
    public static final class Service {

        @Configuration(proxyBeanMethods = false)
        static class Empty {
        }

        public static void main(String[] args) throws Exception {
            SpringApplication app = new SpringApplication(Empty.class);
            app.setWebApplicationType(WebApplicationType.NONE);
            try (ConfigurableApplicationContext ignored = app.run()) {
                System.out.println("resolved " + lookUp());
                Path moved = Path.of(args[0]);
                while (!Files.exists(moved)) {
                    Thread.sleep(20);
                }
                long start = System.nanoTime();
                long deadline = start + Duration.ofSeconds(45).toNanos();
                while (System.nanoTime() < deadline) {
                    String address = lookUp();
                    if (address.equals("10.11.12.14")) {
                        System.out.println("resolved " + address + " after the move in "
                                + (System.nanoTime() - start) / 1_000_000 + " ms");
                        return;
                    }
                    Thread.sleep(100);
                }
                System.out.println("still the old answer 45 s after the move");
            }
        }

        private static String lookUp() {
            try {
                return InetAddress.getByName(NAME).getHostAddress();
            } catch (UnknownHostException e) {
                return "none";
            }
        }
    }
}
