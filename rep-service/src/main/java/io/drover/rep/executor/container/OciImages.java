package io.drover.rep.executor.container;

import io.drover.model.json.Json;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.zip.GZIPInputStream;
import tools.jackson.databind.JsonNode;

/**
 * OCI image layouts on the cell ({@code oci:///path}: the format skopeo, buildah and {@code docker save}-converted
 * images use), unpacked once per manifest digest into {@code <cache>/<digest>/rootfs}, shared read-only by every
 * instance of the image. The layout's {@code index.json} names the manifest (the first, or the first linux/amd64 one
 * of a nested index); its layers are applied in order ({@link LayerTar}: tar or tar+gzip, whiteouts). An image is
 * unpacked into a temporary directory and renamed into place, so a half-unpacked image is never used.
 */
final class OciImages {

    private final Path cache;

    OciImages(Path cache) {
        this.cache = cache;
    }

    /** The unpacked root filesystem of the layout's image, unpacking it first if no instance has used it yet. */
    synchronized Path unpacked(Path layout) throws IOException {
        if (!Files.isRegularFile(layout.resolve("index.json"))) {
            throw new IOException("no OCI image layout at " + layout + " (no index.json)");
        }
        JsonNode manifestDescriptor = manifest(layout, Json.tree(Files.readString(layout.resolve("index.json"))));
        String digest = manifestDescriptor.path("digest").asString();
        Path target = cache.resolve(digest.replace(':', '-'));
        Path rootfs = target.resolve("rootfs");
        if (Files.isDirectory(rootfs)) {
            return rootfs;
        }
        JsonNode manifest = Json.tree(Files.readString(blob(layout, digest)));
        Files.createDirectories(cache);
        Path temp = Files.createTempDirectory(cache, ".unpack-");
        try {
            Path tree = Files.createDirectories(temp.resolve("rootfs"));
            for (JsonNode layer : manifest.path("layers")) {
                apply(blob(layout, layer.path("digest").asString()), layer.path("mediaType").asString(), tree);
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            delete(temp);
            throw new IOException("cannot unpack the image at " + layout + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            delete(temp);
            throw e;
        }
        return rootfs;
    }

    /** The image manifest's descriptor: the index's first manifest, looking into a nested index for linux/amd64. */
    private static JsonNode manifest(Path layout, JsonNode index) throws IOException {
        JsonNode first = null;
        for (JsonNode descriptor : index.path("manifests")) {
            String type = descriptor.path("mediaType").asString();
            if (type.endsWith("image.index.v1+json") || type.endsWith("manifest.list.v2+json")) {
                return manifest(layout, Json.tree(Files.readString(blob(layout, descriptor.path("digest").asString()))));
            }
            JsonNode platform = descriptor.path("platform");
            if (platform.isMissingNode() || "amd64".equals(platform.path("architecture").asString())) {
                return descriptor;
            }
            first = first == null ? descriptor : first;
        }
        if (first == null) {
            throw new IOException("the image layout's index.json names no manifest");
        }
        return first;
    }

    private static Path blob(Path layout, String digest) throws IOException {
        if (!digest.matches("[a-z0-9]+:[a-f0-9]{32,128}")) {
            throw new IOException("not a digest: " + digest);
        }
        Path blob = layout.resolve("blobs").resolve(digest.replace(':', '/'));
        if (!Files.isRegularFile(blob)) {
            throw new IOException("the image layout has no blob " + digest);
        }
        return blob;
    }

    private static void apply(Path blob, String mediaType, Path tree) throws IOException {
        if (mediaType.contains("zstd")) {
            throw new IOException("zstd layers are not supported: " + mediaType);
        }
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(blob), 1 << 16)) {
            raw.mark(2);
            int b0 = raw.read();
            int b1 = raw.read();
            raw.reset();
            boolean gzip = b0 == 0x1f && b1 == 0x8b;
            try (InputStream in = gzip ? new GZIPInputStream(raw, 1 << 16) : raw) {
                new LayerTar(tree).apply(in);
            }
        }
    }

    static void delete(Path root) {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            // best effort: a leftover temporary directory is never used
        }
    }
}
