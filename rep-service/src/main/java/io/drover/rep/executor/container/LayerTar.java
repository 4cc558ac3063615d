package io.drover.rep.executor.container;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.stream.Stream;

/**
 * Applies one image layer (a tar stream) to a tree, as the OCI image spec says: regular files, directories, symbolic
 * and hard links with their mode, owner and time; {@code .wh.NAME} removes NAME from the layers below, {@code
 * .wh..wh..opq} empties its directory of them. Nothing is ever written outside the tree: an entry whose path has
 * {@code ..} or passes through a symbolic link is refused, and a link's target is kept as written (it means a path
 * inside the image, and is only ever followed inside the container). Devices and fifos are skipped.
 */
final class LayerTar {

    private static final int BLOCK = 512;

    private static final String WHITEOUT = ".wh.";

    private static final String OPAQUE = ".wh..wh..opq";

    private final Path tree;

    LayerTar(Path tree) {
        this.tree = tree.toAbsolutePath().normalize();
    }

    void apply(InputStream in) throws IOException {
        byte[] header = new byte[BLOCK];
        String longName = null;
        String longLink = null;
        while (in.readNBytes(header, 0, BLOCK) == BLOCK && !allZero(header)) {
            char type = (char) header[156];
            long size = number(header, 124, 12);
            String name = longName != null ? longName : name(header);
            String link = longLink != null ? longLink : text(header, 157, 100);
            longName = null;
            longLink = null;
            switch (type) {
                case 'L' -> {
                    longName = new String(in.readNBytes((int) size), StandardCharsets.UTF_8).replace("\0", "");
                    skip(in, padding(size));
                    continue;
                }
                case 'K' -> {
                    longLink = new String(in.readNBytes((int) size), StandardCharsets.UTF_8).replace("\0", "");
                    skip(in, padding(size));
                    continue;
                }
                case 'x' -> {
                    String records = new String(in.readNBytes((int) size), StandardCharsets.UTF_8);
                    longName = pax(records, "path");
                    longLink = pax(records, "linkpath");
                    skip(in, padding(size));
                    continue;
                }
                default -> {
                }
            }
            Path target = inside(name);
            String base = target.getFileName() == null ? "" : target.getFileName().toString();
            if (base.equals(OPAQUE)) {
                emptyDirectory(target.getParent());
            } else if (base.startsWith(WHITEOUT)) {
                OciImages.delete(target.resolveSibling(base.substring(WHITEOUT.length())));
            } else if (!target.equals(tree)) {
                write(type, target, link, header, in, size);
                skip(in, padding(size));
                continue;
            }
            skip(in, size + padding(size));
        }
    }

    private void write(char type, Path target, String link, byte[] header, InputStream in, long size)
            throws IOException {
        int mode = (int) number(header, 100, 8) & 07777;
        Files.createDirectories(target.getParent());
        if (type == '5') {
            if (!Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                OciImages.delete(target);
                Files.createDirectory(target);
            }
        } else {
            OciImages.delete(target);
            if (type == '0' || type == '\0' || type == '7') {
                Files.copy(new Bounded(in, size), target, StandardCopyOption.REPLACE_EXISTING);
            } else if (type == '2') {
                Files.createSymbolicLink(target, Path.of(link));
                skip(in, size);
                return;
            } else if (type == '1') {
                Files.createLink(target, inside(link));
                skip(in, size);
                return;
            } else {
                skip(in, size);
                return;
            }
        }
        Files.setAttribute(target, "unix:uid", (int) number(header, 108, 8), LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(target, "unix:gid", (int) number(header, 116, 8), LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(target, "unix:mode", mode, LinkOption.NOFOLLOW_LINKS);
        Files.setLastModifiedTime(target, FileTime.fromMillis(number(header, 136, 12) * 1000));
    }

    /** An entry's path in the tree; refused when it would leave it or pass through a link. */
    Path inside(String name) throws IOException {
        String relative = name.replaceFirst("^(\\./|/)+", "");
        Path target = tree.resolve(relative).normalize();
        if (!target.startsWith(tree)) {
            throw new IOException("layer entry " + name + " would be written outside the image");
        }
        for (Path dir = target.getParent(); dir != null && dir.startsWith(tree) && !dir.equals(tree);
                dir = dir.getParent()) {
            if (Files.isSymbolicLink(dir)) {
                throw new IOException("layer entry " + name + " passes through the link " + tree.relativize(dir));
            }
        }
        return target;
    }

    private static void emptyDirectory(Path dir) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            entries.forEach(OciImages::delete);
        }
    }

    private static String pax(String records, String key) {
        for (String record : records.split("\n")) {
            int space = record.indexOf(' ');
            if (space > 0 && record.startsWith(key + "=", space + 1)) {
                return record.substring(space + 1 + key.length() + 1);
            }
        }
        return null;
    }

    private static String name(byte[] header) {
        String name = text(header, 0, 100);
        String prefix = new String(header, 257, 5, StandardCharsets.US_ASCII).equals("ustar") ? text(header, 345, 155)
                : "";
        return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    private static String text(byte[] header, int offset, int length) {
        int end = offset;
        while (end < offset + length && header[end] != 0) {
            end++;
        }
        return new String(header, offset, end - offset, StandardCharsets.UTF_8);
    }

    /** An octal field, or GNU's base-256 for large values. */
    private static long number(byte[] header, int offset, int length) {
        if ((header[offset] & 0x80) != 0) {
            long value = 0;
            for (int i = offset + 1; i < offset + length; i++) {
                value = (value << 8) | (header[i] & 0xff);
            }
            return value;
        }
        String text = text(header, offset, length).trim();
        return text.isEmpty() ? 0 : Long.parseLong(text, 8);
    }

    private static long padding(long size) {
        return (BLOCK - size % BLOCK) % BLOCK;
    }

    private static boolean allZero(byte[] block) {
        for (byte b : block) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static void skip(InputStream in, long n) throws IOException {
        long left = n;
        while (left > 0) {
            long skipped = in.skip(left);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new IOException("layer ends in the middle of an entry");
                }
                skipped = 1;
            }
            left -= skipped;
        }
    }

    /** The next {@code size} bytes of the stream, without closing it. */
    private static final class Bounded extends InputStream {

        private final InputStream in;
        private long left;

        Bounded(InputStream in, long size) {
            this.in = in;
            this.left = size;
        }

        @Override
        public int read() throws IOException {
            if (left <= 0) {
                return -1;
            }
            int b = in.read();
            if (b >= 0) {
                left--;
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (left <= 0) {
                return -1;
            }
            int n = in.read(buffer, offset, (int) Math.min(length, left));
            if (n > 0) {
                left -= n;
            }
            return n;
        }
    }
}
