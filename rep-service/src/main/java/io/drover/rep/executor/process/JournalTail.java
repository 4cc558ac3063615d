package io.drover.rep.executor.process;

import io.drover.rep.executor.LogLine;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Predicate;

/**
 * Reads the last lines of a journal file from its end, a chunk at a time, so a tail of a few lines costs a few
 * kilobytes of reading however large the file is.
 */
final class JournalTail {

    private static final int CHUNK = 64 * 1024;

    private JournalTail() {
    }

    /** Up to {@code n} lines of {@code file} that {@code wanted} accepts, oldest first; none for a missing file. */
    static List<LogLine> last(Path file, int n, Predicate<LogLine> wanted) throws IOException {
        Deque<LogLine> found = new ArrayDeque<>();
        if (n <= 0) {
            return List.of();
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long position = channel.size();
            byte[] carry = new byte[0];
            while (position > 0 && found.size() < n) {
                int length = (int) Math.min(CHUNK, position);
                position -= length;
                ByteBuffer buffer = ByteBuffer.allocate(length + carry.length);
                channel.read(buffer.limit(length), position);
                byte[] bytes = buffer.array();
                System.arraycopy(carry, 0, bytes, length, carry.length);
                int end = bytes.length;
                for (int i = bytes.length - 1; i >= 0 && found.size() < n; i--) {
                    if (bytes[i] == '\n') {
                        take(bytes, i + 1, end, wanted, found);
                        end = i;
                    }
                }
                if (position == 0 && found.size() < n) {
                    take(bytes, 0, end, wanted, found);
                    end = 0;
                }
                carry = java.util.Arrays.copyOf(bytes, end);
            }
        } catch (NoSuchFileException e) {
            return List.of();
        }
        return List.copyOf(found);
    }

    private static void take(byte[] bytes, int from, int to, Predicate<LogLine> wanted, Deque<LogLine> found) {
        if (to <= from) {
            return;
        }
        LogLine.parse(new String(bytes, from, to - from, StandardCharsets.UTF_8)).filter(wanted)
                .ifPresent(found::addFirst);
    }
}
