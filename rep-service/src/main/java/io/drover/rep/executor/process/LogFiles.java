package io.drover.rep.executor.process;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Keeps an instance's log files under their cap by copy-truncate, the only rotation that works on a file a process
 * holds open: the newest {@code cap} bytes replace {@code <name>.1} (atomically) and the file is truncated to zero. The
 * process opened it with O_APPEND, so its next write lands at the new end instead of leaving a hole. Checked on every
 * sample, so a file may overshoot the cap by what the process writes in one sample interval; lines written between
 * the copy and the truncate are lost (as with logrotate's copytruncate).
 */
final class LogFiles {

    private LogFiles() {
    }

    /** True when the file was over the cap and has been rotated (it is empty now). */
    static boolean cap(Path log, long capBytes) throws IOException {
        long size;
        try {
            size = Files.size(log);
        } catch (NoSuchFileException e) {
            return false;
        }
        if (size <= capBytes) {
            return false;
        }
        Path rotated = log.resolveSibling(log.getFileName() + ".1");
        Path partial = log.resolveSibling(log.getFileName() + ".1.tmp");
        try (FileChannel in = FileChannel.open(log, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            copyTail(in, size - capBytes, capBytes, partial);
            Files.move(partial, rotated, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            in.truncate(0);
        }
        return true;
    }

    private static void copyTail(FileChannel in, long from, long length, Path target) throws IOException {
        try (FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            long copied = 0;
            while (copied < length) {
                long n = in.transferTo(from + copied, length - copied, out);
                if (n <= 0) {
                    return;
                }
                copied += n;
            }
        }
    }
}
