package io.drover.cluster;

import static org.awaitility.Awaitility.await;

import io.drover.rep.executor.process.cgroup.CgroupDetection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The cgroups of this JVM's clusters live under a root of its own ({@link #ROOT}), so that builds running side by side
 * on one machine never adopt or kill each other's instances, and so that a test can check none is left after a cluster
 * closed (where the machine gives reps cgroups at all).
 */
final class TestCgroups {

    static final String ROOT = "drover-it-" + ProcessHandle.current().pid();

    private TestCgroups() {
    }

    /** The base directories of {@link #ROOT} that still exist: empty once every rep closed with nothing running. */
    static List<Path> left() {
        return CgroupDetection.existing(ROOT);
    }

    /** For a test that leaves workloads running on purpose: once it killed them, their cgroups are removed. */
    static void removeOnceEmpty() {
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            left().forEach(TestCgroups::removeTree);
            return left().isEmpty();
        });
    }

    private static void removeTree(Path base) {
        try (Stream<Path> dirs = Files.walk(base)) {
            dirs.filter(Files::isDirectory).sorted(Comparator.reverseOrder()).forEach(dir -> {
                try {
                    Files.deleteIfExists(dir);
                } catch (IOException e) {
                    // a process is still in it: the next attempt
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // removed meanwhile
        }
    }
}
