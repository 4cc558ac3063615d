package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./drover-local}'s main in a process of its own, as a user runs it: when a part cannot start, the parts that
 * did are stopped (no PostgreSQL left running), one line on stderr says why, nothing else reaches the terminal, and
 * the process exits with status 1 instead of hanging half-started.
 */
class LocalClusterMainIT {

    @TempDir
    Path dir;

    @Test
    void aPartThatCannotStartStopsTheOthersAndTheProcessExitsSayingWhyInOneLine() throws Exception {
        Path data = dir.resolve("local");
        Files.createDirectories(data);
        // Kafka's storage directory is a file: the broker cannot start, while PostgreSQL (started beside it) can.
        Files.writeString(data.resolve("kafka"), "not a directory");
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process main = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), LocalClusterMain.class.getName(), "--data-dir=" + data,
                "--receptor-port=0").redirectOutput(out.toFile()).redirectError(err.toFile()).start();

        assertThat(main.waitFor(3, TimeUnit.MINUTES)).as("the process exits").isTrue();
        assertThat(main.exitValue()).isEqualTo(1);
        List<String> errors = Files.readAllLines(err);
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0)).startsWith("drover: could not start: Kafka did not start: ")
                .contains(data.resolve("logs").resolve("drover.log").toString());
        assertThat(Files.readAllLines(out)).singleElement().asString().startsWith("drover: starting in ");
        assertThat(Files.readString(data.resolve("logs").resolve("drover.log"))).contains("local-cluster-start-failed");
        assertThat(ProcessHandle.allProcesses().flatMap(p -> p.info().commandLine().stream())
                .filter(command -> command.contains(data.resolve("postgres").toString())))
                .as("PostgreSQL was stopped").isEmpty();
    }
}
