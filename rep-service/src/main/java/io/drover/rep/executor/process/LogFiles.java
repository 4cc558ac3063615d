package io.drover.rep.executor.process;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Keeps an instance's log files under their cap by copy-truncate, the only rotation that works on a file a process
 * holds open: the newest {@code cap} bytes are copied to {@code <name>.1} and the file is truncated to zero. The
 * process opened it with O_APPEND, so its next write lands at the new end instead of leaving a hole. Checked on every
 * sample, so a file may overshoot the cap by what the process writes in one sample interval; lines written between
 * the copy and the truncate are lost (as with logrotate's copytruncate).
 */
final class LogFiles {

    private LogFiles() {
    }

    static void cap(Path log, long capBytes) throws IOException {
        long size;
        try {
            size = Files.size(log);
        } catch (NoSuchFileException e) {
            return;
        }
        if (size <= capBytes) {
            return;
        }
        Path rotated = log.resolveSibling(log.getFileName() + ".1");
        try (FileChannel in = FileChannel.open(log, StandardOpenOption.READ, StandardOpenOption.WRITE);
                FileChannel out = FileChannel.open(rotated, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            long from = size - capBytes;
            long copied = 0;
            while (copied < capBytes) {
                long n = in.transferTo(from + copied, capBytes - copied, out);
                if (n <= 0) {
                    break;
                }
                copied += n;
            }
            in.truncate(0);
        }
    }
}
