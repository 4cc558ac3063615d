package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The receptor's password is in cluster.env, and the database and logs in the data directory: the owner's only. */
class ClusterFilesTest {

    @TempDir
    Path dir;

    @Test
    void theDataDirectoryIsMadeForItsOwnerOnlyAndAnOpenOneIsClosed() throws Exception {
        Path fresh = ClusterFiles.dataDirectory(dir.resolve("a").resolve("local"));
        assertThat(permissions(fresh)).isEqualTo("rwx------");

        Path open = Files.createDirectories(dir.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(permissions(ClusterFiles.dataDirectory(open))).isEqualTo("rwx------");
    }

    @Test
    void clusterEnvIsReadableByItsOwnerOnlyFromItsFirstByteEvenWhenAnOpenOneWasThere() throws Exception {
        Path env = ClusterFiles.writeEnv(dir, "http://127.0.0.1:8080", "drover", "s3cret", "127.0.0.1:9092",
                "http://127.0.0.1:8081");
        assertThat(permissions(env)).isEqualTo("rw-------");
        assertThat(Files.readString(env)).contains("export DROVER_PASSWORD=s3cret\n")
                .contains("export DROVER_ROUTER_URL=http://127.0.0.1:8081\n");

        Files.setPosixFilePermissions(env, PosixFilePermissions.fromString("rw-r--r--"));
        ClusterFiles.writeEnv(dir, "http://127.0.0.1:8081", "drover", "other", "127.0.0.1:9092",
                "http://127.0.0.1:8082");
        assertThat(permissions(env)).isEqualTo("rw-------");
        assertThat(Files.readString(env)).contains("DROVER_PASSWORD=other").doesNotContain("s3cret");
        try (var left = Files.list(dir)) {
            assertThat(left).as("no temporary file left behind").containsExactly(env);
        }
    }

    private static String permissions(Path path) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
