package io.drover.verify;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a run that did not converge saves beside its history ({@code <history>.diagnostics.txt}), and the part of it it
 * prints: where the loops that make a cluster converge wait (the converger's, the deployer's, the elections', the
 * auction's, the outbox relay's) and how they got there through Drover's code, then everything about the database and
 * the loops' last log lines. CI keeps only what a run printed.
 */
final class Diagnostics {

    /** The threads whose stacks are printed: the loops convergence waits on. */
    static final Pattern LOOPS = Pattern.compile("\"(deployer|convergence-loop|converger-[^\"]*|leader-[^\"]*"
            + "|autoscaler|auction-rounds|outbox-relay[^\"]*)\".*");
    private static final int FRAMES_PRINTED = 40;

    private Diagnostics() {
    }

    /** Writes the diagnostics beside {@code history}; returns the file, or null when there was nothing to write. */
    static Path save(String diagnostics, Path history) {
        if (diagnostics.isEmpty()) {
            return null;
        }
        Path file = Path.of(history.toString().replace(".jsonl", ".diagnostics.txt"));
        try {
            Files.writeString(file, diagnostics);
        } catch (IOException e) {
            System.err.println("verify: could not write " + file + ": " + e);
        }
        return file;
    }

    /** Prints where the diagnostics went and their summary ({@link #printed}). */
    static void print(String diagnostics, Path file, PrintStream out) {
        out.println("verify: not converged; the cluster's threads and database sessions in " + file
                + "; the loops convergence waits on, and the database:");
        printed(diagnostics).forEach(line -> out.println("  | " + line));
    }

    /** The loops' stacks (each cut to its top frames) and everything after the threads. */
    static List<String> printed(String diagnostics) {
        List<String> lines = new ArrayList<>();
        boolean inThreads = false;
        boolean keep = false;
        int frames = 0;
        for (String line : diagnostics.split("\n")) {
            if (line.equals("threads:")) {
                inThreads = true;
                continue;
            }
            if (inThreads && !line.startsWith("    ")) {
                if (!line.startsWith("\"")) {
                    inThreads = false;
                    lines.add(line);
                    continue;
                }
                keep = LOOPS.matcher(line).matches();
                frames = 0;
                if (keep) {
                    lines.add(line);
                }
            } else if (inThreads) {
                // where it waits, then the way there through Drover's own code: an idle loop is two lines
                if (keep && (frames == 0 || line.contains("at io.drover.") && frames <= FRAMES_PRINTED)) {
                    lines.add(line);
                }
                frames++;
            } else {
                lines.add(line);
            }
        }
        return lines;
    }
}
