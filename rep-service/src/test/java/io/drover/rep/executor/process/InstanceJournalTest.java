package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.rep.executor.LogFollower;
import io.drover.rep.executor.LogLine;
import io.drover.rep.executor.LogSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import io.drover.test.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The journal over real files: what the process appends comes out as stamped lines of its source. */
class InstanceJournalTest {

    private static final Set<LogSource> ALL = EnumSet.allOf(LogSource.class);

    @TempDir
    Path root;

    final MutableClock clock = new MutableClock(Instant.parse("2025-01-31T10:00:00Z"));

    @Test
    void stampsEachLineOfStdoutAndStderrWithWhenItWasReadAndItsSource() throws IOException {
        InstanceJournal journal = journal(1024 * 1024);
        journal.rep("claimed");
        append("stdout.log", "one\ntwo\npar");
        append("stderr.log", "bad\n");
        clock.advance(Duration.ofMillis(250));
        journal.ingest();
        append("stdout.log", "tial\n");
        journal.ingest();

        assertThat(texts(journal.tail(10, ALL))).containsExactly("rep claimed", "stdout one", "stdout two",
                "stderr bad", "stdout partial");
        assertThat(journal.tail(10, ALL).get(1).at()).isEqualTo(Instant.parse("2025-01-31T10:00:00.250Z"));
        assertThat(texts(journal.tail(2, EnumSet.of(LogSource.STDOUT)))).containsExactly("stdout two",
                "stdout partial");
    }

    @Test
    void aTailReachesIntoTheRotatedJournal() throws IOException {
        InstanceJournal journal = journal(200);
        for (int i = 0; i < 12; i++) {
            journal.rep("line " + i);
        }
        assertThat(Files.exists(root.resolve("journal.log.1"))).isTrue();
        List<String> tail = texts(journal.tail(5, ALL));
        assertThat(tail).containsExactly("rep line 7", "rep line 8", "rep line 9", "rep line 10", "rep line 11");
    }

    @Test
    void aRotatedProcessFileIsReadAgainFromItsStart() throws IOException {
        InstanceJournal journal = journal(1024 * 1024);
        append("stdout.log", "x".repeat(3000) + "\n");
        journal.capRaw(1024);
        append("stdout.log", "after rotation\n");
        journal.ingest();
        assertThat(texts(journal.tail(1, ALL))).containsExactly("stdout after rotation");
    }

    @Test
    void aFollowerGetsTheTailThenLaterLinesAndEndsWithTheInstance() throws Exception {
        InstanceJournal journal = journal(1024 * 1024);
        journal.rep("claimed");
        LogFollower follower = journal.follow(5, EnumSet.of(LogSource.STDOUT, LogSource.REP), 100);
        append("stdout.log", "hello\n");
        append("stderr.log", "not for this follower\n");
        journal.ingest();
        append("stdout.log", "last words without a line break");
        journal.close("crashed: exited with status 1");

        List<String> seen = new ArrayList<>();
        while (!follower.isDone()) {
            LogLine line = follower.poll(Duration.ofMillis(100));
            if (line != null) {
                seen.add(line.source().label() + " " + line.text());
            }
        }
        assertThat(seen).containsExactly("rep claimed", "stdout hello", "stdout last words without a line break",
                "rep crashed: exited with status 1");
        LogFollower late = journal.follow(1, ALL, 10);
        assertThat(late.poll(Duration.ZERO).text()).isEqualTo("crashed: exited with status 1");
        assertThat(late.isDone()).as("following a closed journal ends after its tail").isTrue();
    }

    @Test
    void aFollowerThatFallsAWholeBufferBehindIsCutOff() {
        InstanceJournal journal = journal(1024 * 1024);
        LogFollower follower = journal.follow(0, ALL, 2);
        for (int i = 0; i < 3; i++) {
            journal.rep("line " + i);
        }
        assertThat(follower.overflowed()).isTrue();
    }

    private InstanceJournal journal(long cap) {
        return new InstanceJournal(new InstanceDir(root), clock, cap);
    }

    private void append(String file, String text) throws IOException {
        Files.writeString(root.resolve(file), text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static List<String> texts(List<LogLine> lines) {
        return lines.stream().map(l -> l.source().label() + " " + l.text()).toList();
    }
}
