package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A task's result file: read from inside its directory only, and only its head. */
class InstanceFilesTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = { "../outside.txt", "a/../../outside.txt", "/etc/passwd", "", "." })
    void aPathThatLeavesTheDirectoryIsRefused(String path) {
        assertThatThrownBy(() -> InstanceFiles.resolve(dir.resolve("app"), path))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theHeadOfTheFileIsReadAndAMissingFileIsNone() throws Exception {
        Path app = Files.createDirectories(dir.resolve("app"));
        Files.createDirectories(app.resolve("out"));
        Files.writeString(app.resolve("out/result.txt"), "x".repeat(20_000));

        assertThat(InstanceFiles.readHead(app, "out/./result.txt", 10_240)).get().asString().hasSize(10_240);
        assertThat(InstanceFiles.readHead(app, "missing.txt", 10_240)).isEmpty();
    }

    @Test
    void aLinkPointingOutsideIsRefused() throws Exception {
        Path app = Files.createDirectories(dir.resolve("app"));
        Path secret = Files.writeString(dir.resolve("secret.txt"), "secret");
        Files.createSymbolicLink(app.resolve("result.txt"), secret);

        assertThatThrownBy(() -> InstanceFiles.readHead(app, "result.txt", 100))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
