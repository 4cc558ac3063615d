package io.drover.verify.history;

import io.drover.model.json.Json;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A history as JSON lines: appended by many threads while the run goes, kept in memory for the checks, and read back
 * from a file to check a run again ({@code ./drover-verify --check <file>}).
 */
public final class HistoryFile implements AutoCloseable {

    private final Path path;
    private final BufferedWriter out;
    private final List<Entry> entries = Collections.synchronizedList(new ArrayList<>());
    private boolean closed;

    private HistoryFile(Path path) throws IOException {
        this.path = path;
        Files.createDirectories(path.getParent());
        this.out = Files.newBufferedWriter(path, StandardCharsets.UTF_8);
    }

    public static HistoryFile create(Path path) {
        try {
            return new HistoryFile(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path, e);
        }
    }

    public Path path() {
        return path;
    }

    public void add(Entry entry) {
        String line = Json.MAPPER.writerFor(Entry.class).writeValueAsString(entry);
        synchronized (out) {
            if (closed) {
                return; // an observer's last word after the run ended
            }
            entries.add(entry);
            try {
                out.write(line);
                out.write('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** What was recorded so far. */
    public History history() {
        synchronized (out) {
            return new History(new ArrayList<>(entries));
        }
    }

    @Override
    public void close() {
        synchronized (out) {
            closed = true;
            try {
                out.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Reads a history written by a run. */
    public static History read(Path path) {
        try (var lines = Files.lines(path, StandardCharsets.UTF_8)) {
            return new History(lines.filter(l -> !l.isBlank()).map(HistoryFile::parse).toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    public static Entry parse(String line) {
        return Json.read(line, Entry.class);
    }

    public static String write(Entry entry) {
        return Json.MAPPER.writerFor(Entry.class).writeValueAsString(entry);
    }
}
