package io.drover.rep.executor.process;

import io.drover.rep.executor.InstanceLog;
import io.drover.rep.executor.LogFollower;
import io.drover.rep.executor.LogLine;
import io.drover.rep.executor.LogSource;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One instance's log as the rep keeps it: {@code journal.log} in the instance directory, one {@link LogLine} per line,
 * stamped when the rep read it from the process's {@code stdout.log}/{@code stderr.log} (every quarter second) or wrote
 * it itself (its lifecycle lines). The rep is its only writer, so it rotates by renaming to {@code journal.log.1} at
 * the cap. Followers get every line appended after their tail, until the journal is closed (the instance is gone).
 * The process's own files stay as they were: output written while no rep was running is in them only.
 */
final class InstanceJournal implements InstanceLog {

    private static final Logger log = LoggerFactory.getLogger(InstanceJournal.class);

    private final Path file;
    private final Path rotated;
    private final Clock clock;
    private final long cap;
    private final RawOutput stdout;
    private final RawOutput stderr;
    private final Map<LogFollower, Set<LogSource>> followers = new ConcurrentHashMap<>();
    private OutputStream out;
    private long size = -1;
    private boolean closed;

    InstanceJournal(InstanceDir dir, Clock clock, long cap) {
        this.file = dir.root().resolve("journal.log");
        this.rotated = dir.root().resolve("journal.log.1");
        this.clock = clock;
        this.cap = cap;
        this.stdout = new RawOutput(dir.stdout());
        this.stderr = new RawOutput(dir.stderr());
    }

    /** A lifecycle line of the rep's own. */
    synchronized void rep(String text) {
        append(LogSource.REP, List.of(text));
        flush();
    }

    /** Takes in what the process wrote since the last call. */
    synchronized void ingest() {
        if (closed) {
            return;
        }
        try {
            append(LogSource.STDOUT, stdout.read());
            append(LogSource.STDERR, stderr.read());
        } catch (IOException e) {
            log.debug("journal-ingest-failed file={} error={}", file, e.toString());
        }
        flush();
    }

    /**
     * Keeps the process's files under {@code rawCap} (copy-truncate, {@link LogFiles}) after taking in what they hold,
     * so nothing the journal has not seen is truncated away between two reads.
     */
    synchronized void capRaw(long rawCap) throws IOException {
        ingest();
        for (RawOutput raw : List.of(stdout, stderr)) {
            if (LogFiles.cap(raw.file(), rawCap)) {
                raw.truncated();
            }
        }
    }

    /** An adopted process: what it wrote before this rep started is not new. */
    synchronized void skipExistingOutput() {
        try {
            stdout.skipToEnd();
            stderr.skipToEnd();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The instance is gone: takes in its last output, ends every follower, closes the file. Idempotent. */
    synchronized void close() {
        close(null);
    }

    /** Like {@link #close()}, with a last lifecycle line of the rep's after the process's last output. */
    synchronized void close(String lastLine) {
        if (closed) {
            return;
        }
        ingest();
        append(LogSource.STDOUT, stdout.rest());
        append(LogSource.STDERR, stderr.rest());
        if (lastLine != null) {
            append(LogSource.REP, List.of(lastLine));
        }
        flush();
        closed = true;
        followers.keySet().forEach(LogFollower::end);
        followers.clear();
        closeFile();
    }

    @Override
    public synchronized List<LogLine> tail(int lines, Set<LogSource> sources) {
        flush();
        try {
            List<LogLine> newest = JournalTail.last(file, lines, l -> sources.contains(l.source()));
            if (newest.size() >= lines) {
                return newest;
            }
            List<LogLine> all = new ArrayList<>(
                    JournalTail.last(rotated, lines - newest.size(), l -> sources.contains(l.source())));
            all.addAll(newest);
            return all;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized LogFollower follow(int lines, Set<LogSource> sources, int buffer) {
        List<LogLine> tail = tail(lines, sources);
        LogFollower follower = new LogFollower(tail.size() + buffer);
        tail.forEach(follower::offer);
        if (closed) {
            follower.end();
        } else {
            followers.put(follower, Set.copyOf(sources));
        }
        return follower;
    }

    private void append(LogSource source, List<String> texts) {
        for (String text : texts) {
            LogLine line = new LogLine(clock.instant(), source, text);
            write(line.format());
            followers.forEach((follower, sources) -> {
                if (sources.contains(source)) {
                    follower.offer(line);
                }
            });
        }
        followers.keySet().removeIf(LogFollower::isDone);
    }

    private void write(String line) {
        if (closed) {
            return;
        }
        try {
            if (out == null) {
                Files.createDirectories(file.getParent());
                out = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND));
                size = Files.size(file);
            }
            byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
            out.write(bytes);
            size += bytes.length;
            if (size > cap) {
                closeFile();
                Files.move(file, rotated, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            log.debug("journal-write-failed file={} error={}", file, e.toString());
        }
    }

    private void flush() {
        try {
            if (out != null) {
                out.flush();
            }
        } catch (IOException e) {
            log.debug("journal-flush-failed file={} error={}", file, e.toString());
        }
    }

    private void closeFile() {
        if (out == null) {
            return;
        }
        try {
            out.close();
        } catch (IOException e) {
            log.debug("journal-close-failed file={} error={}", file, e.toString());
        }
        out = null;
    }
}
