package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirLockTest {

    @TempDir
    Path dir;

    @Test
    void aSecondClusterOnTheSameDirectoryIsToldWhoHoldsItUntilTheFirstLetsGo() throws Exception {
        Path data = dir.resolve("local");
        try (DataDirLock first = DataDirLock.acquire(data)) {
            assertThat(Files.readString(data.resolve(".lock"))).isEqualTo(String.valueOf(ProcessHandle.current().pid()));
            assertThatThrownBy(() -> DataDirLock.acquire(data)).isInstanceOf(LocalClusterStartException.class)
                    .hasMessage("another local cluster uses " + data + " (pid " + ProcessHandle.current().pid()
                            + "); stop it, or give this one its own --data-dir");
        }
        DataDirLock.acquire(data).close();
    }
}
