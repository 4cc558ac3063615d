package io.drover.rep.executor.container;

import io.drover.model.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/** Makes OCI image layouts for tests: layers written as ustar archives (gzipped or not), blobs by sha256. */
final class OciLayouts {

    private OciLayouts() {
    }

    /** A tar entry: a directory (content null, not a link), a file, a symbolic link, or a whiteout (an empty file). */
    record Entry(String name, byte[] content, int mode, String link) {

        static Entry dir(String name) {
            return new Entry(name, null, 0755, null);
        }

        static Entry file(String name, byte[] content, int mode) {
            return new Entry(name, content, mode, null);
        }

        static Entry symlink(String name, String target) {
            return new Entry(name, new byte[0], 0777, target);
        }
    }

    static byte[] tar(List<Entry> entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Entry entry : entries) {
            byte[] header = new byte[512];
            char type = entry.link() != null ? '2' : entry.content() == null ? '5' : '0';
            int size = type == '0' ? entry.content().length : 0;
            put(header, 0, 100, entry.name() + (type == '5' ? "/" : ""));
            put(header, 100, 8, String.format("%07o", entry.mode()));
            put(header, 108, 8, String.format("%07o", 0));
            put(header, 116, 8, String.format("%07o", 0));
            put(header, 124, 12, String.format("%011o", size));
            put(header, 136, 12, String.format("%011o", 1_700_000_000L));
            header[156] = (byte) type;
            if (entry.link() != null) {
                put(header, 157, 100, entry.link());
            }
            put(header, 257, 6, "ustar");
            put(header, 263, 2, "00");
            for (int i = 148; i < 156; i++) {
                header[i] = ' ';
            }
            int sum = 0;
            for (byte b : header) {
                sum += b & 0xff;
            }
            put(header, 148, 8, String.format("%06o", sum) + "\0 ");
            out.write(header);
            if (size > 0) {
                out.write(entry.content());
                out.write(new byte[(512 - size % 512) % 512]);
            }
        }
        out.write(new byte[1024]);
        return out.toByteArray();
    }

    static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    /** A layout at {@code dir} whose one image has these layers (each gzipped or not, by its media type). */
    static String write(Path dir, List<byte[]> layers, List<Boolean> gzipped) throws IOException {
        Files.createDirectories(dir.resolve("blobs/sha256"));
        Files.writeString(dir.resolve("oci-layout"), "{\"imageLayoutVersion\":\"1.0.0\"}");
        List<Map<String, Object>> descriptors = new ArrayList<>();
        for (int i = 0; i < layers.size(); i++) {
            descriptors.add(Map.of("mediaType", gzipped.get(i) ? "application/vnd.oci.image.layer.v1.tar+gzip"
                    : "application/vnd.oci.image.layer.v1.tar", "digest", blob(dir, layers.get(i)), "size",
                    layers.get(i).length));
        }
        byte[] config = "{\"architecture\":\"amd64\",\"os\":\"linux\",\"rootfs\":{\"type\":\"layers\"}}"
                .getBytes(StandardCharsets.UTF_8);
        byte[] manifest = Json.write(Map.of("schemaVersion", 2, "mediaType",
                "application/vnd.oci.image.manifest.v1+json", "config", Map.of("mediaType",
                        "application/vnd.oci.image.config.v1+json", "digest", blob(dir, config), "size",
                        config.length), "layers", descriptors)).getBytes(StandardCharsets.UTF_8);
        String digest = blob(dir, manifest);
        Files.writeString(dir.resolve("index.json"), Json.write(Map.of("schemaVersion", 2, "manifests", List.of(
                Map.of("mediaType", "application/vnd.oci.image.manifest.v1+json", "digest", digest, "size",
                        manifest.length)))));
        return digest;
    }

    private static String blob(Path dir, byte[] content) throws IOException {
        try {
            String hex = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
            Files.write(dir.resolve("blobs/sha256").resolve(hex), content);
            return "sha256:" + hex;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void put(byte[] header, int offset, int length, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(bytes, 0, header, offset, Math.min(length, bytes.length));
    }
}
