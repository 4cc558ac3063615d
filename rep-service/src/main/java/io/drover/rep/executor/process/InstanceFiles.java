package io.drover.rep.executor.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Files inside an instance's working directory, by a path the user gave: resolved against the directory and refused
 * when it would leave it, whether by {@code ..}, an absolute path or a symbolic link pointing outside.
 */
final class InstanceFiles {

    private InstanceFiles() {
    }

    /** The path inside {@code root}, or IllegalArgumentException when it is not inside. */
    static Path resolve(Path root, String path) {
        Path base = root.toAbsolutePath().normalize();
        Path resolved = base.resolve(path).normalize();
        if (Path.of(path).isAbsolute() || !resolved.startsWith(base) || resolved.equals(base)) {
            throw new IllegalArgumentException("path " + path + " is not inside the instance's directory");
        }
        return resolved;
    }

    /** The first {@code maxBytes} of the file as UTF-8 (a sequence cut at the end is replaced), empty if missing. */
    static Optional<String> readHead(Path root, String path, int maxBytes) {
        Path file = resolve(root, path);
        try {
            Path real = file.toRealPath();
            if (!real.startsWith(root.toRealPath())) {
                throw new IllegalArgumentException("path " + path + " links outside the instance's directory");
            }
            try (InputStream in = Files.newInputStream(real)) {
                byte[] head = in.readNBytes(maxBytes);
                return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                        .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(ByteBuffer.wrap(head)).toString());
            }
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
