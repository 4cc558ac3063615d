package io.drover.rep.executor.process;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * What a download becomes in the instance's directory: a tar, tgz or zip archive is extracted into {@code to} (a
 * directory), keeping the files' permission bits (a downloaded program stays executable); anything else is copied to
 * {@code to}, or into it when {@code to} is a directory. Entries that would land outside {@code to} (zip slip) are
 * refused, and links are skipped: an archive can only ever write inside the instance.
 */
final class Archives {

    private static final int BLOCK = 512;

    private Archives() {
    }

    static void unpackOrCopy(Path artifact, Path to, String name) throws IOException {
        byte[] head = new byte[BLOCK];
        int read;
        try (InputStream in = Files.newInputStream(artifact)) {
            read = in.readNBytes(head, 0, BLOCK);
        }
        if (read >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) {
            try (InputStream in = new GZIPInputStream(new BufferedInputStream(Files.newInputStream(artifact)))) {
                untar(in, to);
            }
        } else if (read >= 4 && head[0] == 'P' && head[1] == 'K' && head[2] == 3 && head[3] == 4) {
            unzip(artifact, to);
        } else if (read == BLOCK && isTarHeader(head)) {
            try (InputStream in = new BufferedInputStream(Files.newInputStream(artifact))) {
                untar(in, to);
            }
        } else {
            Path target = Files.isDirectory(to) ? to.resolve(name) : to;
            Files.createDirectories(target.getParent());
            Files.copy(artifact, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    static boolean isTarHeader(byte[] header) {
        return new String(header, 257, 5, StandardCharsets.US_ASCII).equals("ustar");
    }

    static void untar(InputStream in, Path to) throws IOException {
        Files.createDirectories(to);
        String longName = null;
        byte[] header = new byte[BLOCK];
        while (in.readNBytes(header, 0, BLOCK) == BLOCK && !allZero(header)) {
            if (!isTarHeader(header)) {
                throw new IOException("not a tar archive");
            }
            char type = (char) header[156];
            long size = number(header, 124, 12);
            String name = longName != null ? longName : name(header);
            longName = null;
            if (type == 'L') {
                longName = new String(in.readNBytes((int) size), StandardCharsets.UTF_8).replace("\0", "");
                skip(in, padding(size));
                continue;
            }
            if (type == 'x') {
                longName = paxPath(new String(in.readNBytes((int) size), StandardCharsets.UTF_8));
                skip(in, padding(size));
                continue;
            }
            Path target = inside(to, name);
            int mode = (int) number(header, 100, 8);
            if (type == '5') {
                Files.createDirectories(target);
            } else if (type == '0' || type == '\0' || type == '7') {
                Files.createDirectories(target.getParent());
                Files.copy(new BoundedInputStream(in, size), target, StandardCopyOption.REPLACE_EXISTING);
                permissions(target, mode);
                skip(in, padding(size));
                continue;
            }
            // links, devices, global pax headers: nothing written (a link could point anywhere)
            skip(in, size + padding(size));
        }
    }

    static void unzip(Path artifact, Path to) throws IOException {
        Files.createDirectories(to);
        try (FileSystem zip = FileSystems.newFileSystem(artifact, Map.of("enablePosixFileAttributes", "true"))) {
            Path root = zip.getPath("/");
            try (Stream<Path> entries = Files.walk(root)) {
                for (Path entry : (Iterable<Path>) entries::iterator) {
                    String name = root.relativize(entry).toString();
                    if (name.isEmpty()) {
                        continue;
                    }
                    Path target = inside(to, name);
                    if (Files.isDirectory(entry)) {
                        Files.createDirectories(target);
                        continue;
                    }
                    Files.createDirectories(target.getParent());
                    Files.copy(entry, target, StandardCopyOption.REPLACE_EXISTING);
                    Set<PosixFilePermission> permissions = zipPermissions(entry);
                    if (!permissions.isEmpty()) {
                        Files.setPosixFilePermissions(target, permissions);
                    }
                }
            }
        }
    }

    /** The path an archive entry names, or an IOException when it would leave {@code to}. */
    static Path inside(Path to, String name) throws IOException {
        Path base = to.toAbsolutePath().normalize();
        Path target = base.resolve(name.startsWith("/") ? name.substring(1) : name).normalize();
        if (!target.startsWith(base) || name.startsWith("/")) {
            throw new IOException("archive entry " + name + " would be written outside " + to.getFileName());
        }
        return target;
    }

    private static Set<PosixFilePermission> zipPermissions(Path entry) {
        try {
            return Files.readAttributes(entry, PosixFileAttributes.class).permissions();
        } catch (IOException | UnsupportedOperationException e) {
            return Set.of();
        }
    }

    private static void permissions(Path file, int mode) throws IOException {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ .. OTHERS_EXECUTE, high bit first
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << (8 - i))) != 0) {
                set.add(bits[i]);
            }
        }
        set.add(PosixFilePermission.OWNER_READ);
        try {
            Files.setPosixFilePermissions(file, set);
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: the bits cannot be kept
        }
    }

    private static String name(byte[] header) {
        String name = text(header, 0, 100);
        String prefix = text(header, 345, 155);
        return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    private static String paxPath(String records) {
        for (String record : records.split("\n")) {
            int space = record.indexOf(' ');
            if (space > 0 && record.startsWith("path=", space + 1)) {
                return record.substring(space + 1 + "path=".length());
            }
        }
        return null;
    }

    private static String text(byte[] header, int offset, int length) {
        int end = offset;
        while (end < offset + length && header[end] != 0) {
            end++;
        }
        return new String(header, offset, end - offset, StandardCharsets.UTF_8);
    }

    /** An octal number, or a base-256 one (GNU tar, for sizes of 8 GiB and more). */
    private static long number(byte[] header, int offset, int length) {
        if ((header[offset] & 0x80) != 0) {
            long value = 0;
            for (int i = offset + 1; i < offset + length; i++) {
                value = (value << 8) | (header[i] & 0xff);
            }
            return value;
        }
        String octal = text(header, offset, length).trim();
        return octal.isEmpty() ? 0 : Long.parseLong(octal, 8);
    }

    private static long padding(long size) {
        return (BLOCK - size % BLOCK) % BLOCK;
    }

    private static void skip(InputStream in, long bytes) throws IOException {
        in.skipNBytes(bytes);
    }

    private static boolean allZero(byte[] block) {
        for (byte b : block) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** At most {@code remaining} bytes of the stream, the rest left to the caller. */
    private static final class BoundedInputStream extends InputStream {

        private final InputStream in;
        private long remaining;

        BoundedInputStream(InputStream in, long remaining) {
            this.in = in;
            this.remaining = remaining;
        }

        @Override
        public int read() throws IOException {
            if (remaining <= 0) {
                return -1;
            }
            int b = in.read();
            if (b >= 0) {
                remaining--;
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (remaining <= 0) {
                return -1;
            }
            int n = in.read(buffer, offset, (int) Math.min(length, remaining));
            if (n > 0) {
                remaining -= n;
            }
            return n;
        }
    }
}
