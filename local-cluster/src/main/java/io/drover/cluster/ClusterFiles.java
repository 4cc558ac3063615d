package io.drover.cluster;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The files a local cluster leaves for its user, readable by that user only: the data directory (the database, the
 * broker's log, the logs, the workloads) is 0700, and {@code cluster.env}, which holds the receptor's password, 0600
 * from its first byte (written aside with those permissions and renamed over the old one).
 */
final class ClusterFiles {

    private static final Set<PosixFilePermission> OWNER_DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private ClusterFiles() {
    }

    /** The data directory, made if missing, and closed to everyone but its owner if it was open. */
    static Path dataDirectory(Path dataDir) throws IOException {
        Files.createDirectories(dataDir);
        if (POSIX) {
            Files.setPosixFilePermissions(dataDir, OWNER_DIRECTORY);
        }
        return dataDir;
    }

    /** {@code DIR/cluster.env}: what {@code ./drover} and {@code source} read to reach the cluster. */
    static Path writeEnv(Path dataDir, String url, String user, String password, String kafka, String routerUrl)
            throws IOException {
        Path env = dataDir.resolve("cluster.env");
        Path aside = POSIX ? Files.createTempFile(dataDir, ".cluster.env", ".new", ownerOnly())
                : Files.createTempFile(dataDir, ".cluster.env", ".new");
        try {
            Files.writeString(aside, "export DROVER_URL=" + url + "\n"
                    + "export DROVER_USER=" + user + "\n"
                    + "export DROVER_PASSWORD=" + password + "\n"
                    + "export DROVER_KAFKA=" + kafka + "\n"
                    + "export DROVER_ROUTER_URL=" + routerUrl + "\n");
            Files.move(aside, env, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(aside);
        }
        return env;
    }

    private static FileAttribute<Set<PosixFilePermission>> ownerOnly() {
        return PosixFilePermissions.asFileAttribute(OWNER_FILE);
    }
}
