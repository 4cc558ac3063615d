package io.drover.verify;

import io.drover.model.json.Json;
import io.drover.verify.check.Anomaly;
import io.drover.verify.check.CheckResult;
import io.drover.verify.history.Entry;
import io.drover.verify.history.History;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a run prints: one summary line ({@code verify: 4,812 ops, 23 faults, 0 anomalies (seed 17)}, naming any check
 * that was skipped and any kind of fault asked for that the cluster cannot inject), a line per check with its figures,
 * the faults by kind, and every anomaly with the history lines that show it. The same as JSON beside the history.
 */
public final class Report {

    private Report() {
    }

    public static String summary(VerifyRun.Outcome outcome, long seed) {
        List<String> skipped = outcome.results().stream().filter(CheckResult::wasSkipped)
                .map(r -> r.check() + " (" + r.skipped() + ")").toList();
        return String.format("verify: %,d ops, %,d faults, %,d anomalies%s%s (seed %d)", outcome.ops(),
                outcome.faults(), outcome.anomalies(),
                skipped.isEmpty() ? "" : ", skipped: " + String.join(", ", skipped),
                outcome.notInjected().isEmpty() ? "" : ", not injected here: " + String.join(", ",
                        outcome.notInjected()), seed);
    }

    public static void print(VerifyRun.Outcome outcome, long seed, PrintStream out) {
        for (CheckResult r : outcome.results()) {
            out.println("  " + r.check() + ": " + (r.wasSkipped() ? "skipped, " + r.skipped()
                    : r.anomalies().size() + " anomalies " + new TreeMap<>(r.figures())));
        }
        out.println("  faults: " + faults(outcome.history()));
        for (CheckResult r : outcome.results()) {
            for (Anomaly a : r.anomalies().subList(0, Math.min(r.anomalies().size(), 10))) {
                out.println("  ANOMALY " + a);
                a.excerpt().forEach(line -> out.println("      " + line));
            }
            if (r.anomalies().size() > 10) {
                out.println("  ... and " + (r.anomalies().size() - 10) + " more anomalies of " + r.check());
            }
        }
        out.println("  history: " + outcome.file());
        out.println(summary(outcome, seed));
    }

    /** The faults injected, by kind: {@code rep-kill 2, kafka-outage 1, ...}. */
    public static String faults(History history) {
        Map<String, Long> byKind = history.faults().stream().filter(f -> f.note() == null
                || !f.note().startsWith("failed")).collect(Collectors.groupingBy(Entry.Fault::kind, TreeMap::new,
                        Collectors.counting()));
        return byKind.isEmpty() ? "none" : byKind.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
    }

    public static void write(VerifyRun.Outcome outcome, long seed) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("summary", summary(outcome, seed));
        json.put("seed", seed);
        json.put("ops", outcome.ops());
        json.put("faults", faults(outcome.history()));
        json.put("history", outcome.file().getFileName().toString());
        json.put("checks", outcome.results());
        Path summary = outcome.file().resolveSibling(outcome.file().getFileName().toString()
                .replace(".jsonl", ".summary.json"));
        try {
            Files.writeString(summary, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
