package io.drover.rep.executor.container;

import io.drover.rep.executor.container.BundleConfig.Bind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The root filesystems a cell's containers start from, each a read-only lower layer shared by every instance:
 * {@code preloaded:host}, an empty skeleton with the host's system directories mounted read-only over it (as today's
 * workloads expect); {@code preloaded:<name>}, the tree {@code <rootfs-dir>/<name>} (a debootstrap tree of
 * {@code ./drover-local --rootfs}); {@code oci:///path}, an OCI image layout on the cell, unpacked once per manifest
 * digest ({@link OciImages}).
 */
final class RootfsCatalog {

    static final String HOST = "preloaded:host";

    private static final List<String> HOST_SYSTEM_DIRS = List.of("/usr", "/bin", "/lib", "/lib64", "/sbin", "/etc");

    private static final List<String> SKELETON_DIRS = List.of("proc", "dev", "sys", "tmp", "var/tmp", "app", "run",
            "home", "root", "var", "mnt", "opt", "srv", ".drover");

    private final Path rootfsDir;

    private final OciImages images;

    private Lower host;

    RootfsCatalog(Path rootfsDir) {
        this.rootfsDir = rootfsDir;
        this.images = new OciImages(rootfsDir.resolve(".oci"));
    }

    /**
     * A lower layer: {@code dir} is the overlay's lower directory; {@code binds} are host directories mounted over it
     * read-only (empty but for {@code preloaded:host}, whose paths are the host's own: {@code host}).
     */
    record Lower(Path dir, List<Bind> binds, boolean host) {

        /** Where a path inside the container is found on the host, for the executable check before a launch. */
        Path onHost(String containerPath) {
            if (host) {
                return Path.of(containerPath);
            }
            for (Bind bind : binds) {
                if (containerPath.equals(bind.destination()) || containerPath.startsWith(bind.destination() + "/")) {
                    return Path.of(bind.source() + containerPath.substring(bind.destination().length()));
                }
            }
            return dir.resolve(containerPath.replaceFirst("^/+", ""));
        }
    }

    /** The lower layer of a rootfs; fails with a reason for one this cell does not have. */
    synchronized Lower lower(String rootfs) throws IOException {
        String name = rootfs == null || rootfs.isBlank() ? HOST : rootfs;
        if (name.equals(HOST)) {
            if (host == null) {
                host = hostSkeleton();
            }
            return host;
        }
        if (name.startsWith("preloaded:")) {
            String tree = name.substring("preloaded:".length());
            Path dir = rootfsDir.resolve(tree);
            if (!tree.matches("[A-Za-z0-9._-]+") || tree.startsWith(".") || !Files.isDirectory(dir.resolve("usr"))) {
                throw new IOException("no root filesystem " + name + " on this cell (expected a tree at " + dir
                        + "; ./drover-local --rootfs " + tree + " makes one)");
            }
            return new Lower(dir, List.of(), false);
        }
        if (name.startsWith("oci://")) {
            return new Lower(images.unpacked(Path.of(name.substring("oci://".length()))), List.of(), false);
        }
        throw new IOException("unsupported rootfs " + name + " (preloaded:host, preloaded:<name> or oci:///path)");
    }

    /** The preloaded trees this cell has ({@code preloaded:<name>} for each tree under the rootfs directory). */
    List<String> preloaded() {
        List<String> names = new ArrayList<>(List.of(HOST));
        try (var dirs = Files.list(rootfsDir)) {
            dirs.filter(d -> Files.isDirectory(d.resolve("usr")) && !d.getFileName().toString().startsWith("."))
                    .map(d -> "preloaded:" + d.getFileName()).sorted().forEach(names::add);
        } catch (IOException e) {
            // no trees
        }
        return names;
    }

    /** An empty tree with the host's layout: its merged-/usr links as links, its real system directories bound. */
    private Lower hostSkeleton() throws IOException {
        Path skeleton = rootfsDir.resolve(".host");
        List<Bind> binds = new ArrayList<>();
        Files.createDirectories(skeleton);
        for (String dir : SKELETON_DIRS) {
            Files.createDirectories(skeleton.resolve(dir));
        }
        for (String tmp : List.of("tmp", "var/tmp")) {
            Files.setAttribute(skeleton.resolve(tmp), "unix:mode", 01777);
        }
        for (String system : HOST_SYSTEM_DIRS) {
            Path hostDir = Path.of(system);
            Path inSkeleton = skeleton.resolve(system.substring(1));
            if (Files.isSymbolicLink(hostDir)) {
                Path target = Files.readSymbolicLink(hostDir);
                if (!Files.isSymbolicLink(inSkeleton)) {
                    Files.deleteIfExists(inSkeleton);
                    Files.createSymbolicLink(inSkeleton, target);
                }
            } else if (Files.isDirectory(hostDir, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(inSkeleton);
                binds.add(new Bind(system, system, true));
            }
        }
        return new Lower(skeleton, List.copyOf(binds), true);
    }
}
