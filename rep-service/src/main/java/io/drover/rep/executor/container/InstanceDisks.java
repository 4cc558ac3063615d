package io.drover.rep.executor.container;

import io.drover.rep.executor.process.SandboxedInstance;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An instance's {@code disk_mb}, enforced by the kernel: its {@code app/} directory is an ext4 file system of that
 * size on a loop device (a sparse image in the disk directory, made in a few milliseconds), and the writable layer of
 * its root filesystem lives on the same file system ({@code app/.drover-layer}, hidden from the instance under an
 * empty read-only directory), so everything it writes, in /app or anywhere else, counts towards the one limit and a
 * write beyond it fails with ENOSPC. Logs are outside it: they are the rep's, capped by {@code log-cap}. Without a
 * {@code disk_mb} the instance writes to the cell's disk unlimited, as under the process executor.
 */
final class InstanceDisks {

    static final String LAYER = ".drover-layer";

    static final String EMPTY = ".empty";

    private final Path diskDir;

    InstanceDisks(Path diskDir) {
        this.diskDir = diskDir;
    }

    /** Makes and mounts the instance's file system at its app directory; false when it has no disk_mb. */
    boolean mount(SandboxedInstance instance) throws IOException {
        int diskMb = instance.definition().diskMb();
        if (diskMb <= 0) {
            return false;
        }
        Path image = image(instance);
        Files.createDirectories(image.getParent());
        Files.createDirectories(diskDir.resolve(EMPTY));
        Files.deleteIfExists(image);
        Commands.run("truncate", "-s", diskMb + "M", image.toString());
        // no journal and lazy init: made in milliseconds; an instance's disk does not outlive a crash of the cell
        Commands.run("mkfs.ext4", "-q", "-F", "-m", "0", "-O", "^has_journal", "-E",
                "lazy_itable_init=1,lazy_journal_init=1", image.toString());
        Commands.run("mount", "-o", "loop,nosuid,nodev", image.toString(), instance.app().toString());
        Files.createDirectories(instance.app().resolve(LAYER));
        Files.deleteIfExists(instance.app().resolve("lost+found"));
        return true;
    }

    boolean mounted(SandboxedInstance instance) {
        return instance.definition().diskMb() > 0 && Files.isDirectory(instance.app().resolve(LAYER));
    }

    /** Unmounts the instance's file system (the loop device goes with it) and deletes its image. */
    void unmount(SandboxedInstance instance) {
        if (instance.definition().diskMb() <= 0) {
            return;
        }
        Commands.quietly("umount", instance.app().toString());
        try {
            Files.deleteIfExists(image(instance));
        } catch (IOException e) {
            // removed with the next instance of the same id, or by hand
        }
    }

    private Path image(SandboxedInstance instance) {
        return diskDir.resolve(instance.cellName()).resolve(instance.safeGuid() + ".img");
    }
}
