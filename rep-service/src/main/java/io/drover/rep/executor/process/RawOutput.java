package io.drover.rep.executor.process;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads what a process appended to one of its output files since the last read, as complete lines. The file is the
 * process's own (O_APPEND, never a pipe), so the rep only ever reads it: a file shorter than the last position was
 * truncated by rotation and is read again from its start. A line longer than {@link #MAX_LINE} bytes is cut there.
 */
final class RawOutput {

    static final int MAX_LINE = 16 * 1024;

    private static final int MAX_READ = 1024 * 1024;

    private final Path file;
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
    private long position;

    RawOutput(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    /** The complete lines appended since the last call (at most about a megabyte per call; the rest comes next). */
    List<String> read() throws IOException {
        long size = size();
        if (size < position) {
            position = 0;
            partial.reset();
        }
        if (size == position) {
            return List.of();
        }
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(MAX_READ, size - position));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (buffer.hasRemaining() && channel.read(buffer, position + buffer.position()) > 0) {
                // keep reading until the buffer is full or the file ends
            }
        }
        position += buffer.position();
        return split(buffer.array(), buffer.position());
    }

    /** What is left of an unfinished last line, once the process is gone. */
    List<String> rest() {
        if (partial.size() == 0) {
            return List.of();
        }
        String line = decode(partial.toByteArray());
        partial.reset();
        return List.of(line);
    }

    /** Starts after what the file holds now (an adopted process: its earlier output is not re-read as new). */
    void skipToEnd() throws IOException {
        position = size();
        partial.reset();
    }

    /** The file was truncated (rotated) under the rep's lock: read it again from its start. */
    void truncated() {
        position = 0;
    }

    private List<String> split(byte[] bytes, int length) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < length; i++) {
            if (bytes[i] == '\n') {
                partial.write(bytes, start, i - start);
                lines.add(decode(partial.toByteArray()));
                partial.reset();
                start = i + 1;
            } else if (partial.size() + (i - start) >= MAX_LINE) {
                partial.write(bytes, start, i - start);
                lines.add(decode(partial.toByteArray()));
                partial.reset();
                start = i;
            }
        }
        partial.write(bytes, start, length - start);
        return lines;
    }

    private static String decode(byte[] bytes) {
        int length = bytes.length;
        if (length > 0 && bytes[length - 1] == '\r') {
            length--;
        }
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }

    private long size() throws IOException {
        try {
            return Files.size(file);
        } catch (NoSuchFileException e) {
            return 0;
        }
    }
}
