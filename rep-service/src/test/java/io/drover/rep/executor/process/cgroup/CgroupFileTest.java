package io.drover.rep.executor.process.cgroup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupFileTest {

    @TempDir
    Path dir;

    @Test
    void aFileIsReadAgainAsItChanges() throws Exception {
        Path usage = Files.writeString(dir.resolve("cpuacct.usage"), "100\n");
        try (CgroupFile file = new CgroupFile(usage)) {
            assertThat(file.number()).isEqualTo(100);
            Files.writeString(usage, "250\n");
            assertThat(file.number()).isEqualTo(250);
        }
    }

    /**
     * A read that fails (here: the reading thread was interrupted, which closes the channel) gives nothing for that
     * read only; it used to close the file for good, and the instance's usage read 0 for the rest of its life.
     */
    @Test
    void aFailedReadIsNotTheLast() throws Exception {
        Path usage = Files.writeString(dir.resolve("cpuacct.usage"), "100\n");
        try (CgroupFile file = new CgroupFile(usage)) {
            assertThat(file.number()).isEqualTo(100);
            Thread.currentThread().interrupt();
            assertThat(file.number()).as("interrupted").isZero();
            assertThat(Thread.interrupted()).isTrue();
            Files.writeString(usage, "300\n");
            assertThat(file.number()).isEqualTo(300);
        }
    }

    @Test
    void aFileThatIsGoneReadsAsNothingAndAClosedOneAsNothingForGood() throws Exception {
        Path usage = Files.writeString(dir.resolve("cpuacct.usage"), "100\n");
        CgroupFile file = new CgroupFile(usage);
        Files.delete(usage);
        assertThat(file.number()).isZero();
        Files.writeString(usage, "7\n");
        assertThat(file.number()).isEqualTo(7);
        file.close();
        assertThat(file.number()).isZero();
    }
}
