package io.drover.bench;

import io.drover.model.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Prints the results table and writes the same figures as JSON. */
final class Report {

    private Report() {
    }

    static String table(List<Figure> figures) {
        StringBuilder out = new StringBuilder();
        String format = "| %-52s | %-46s | %-30s | %-4s |%n";
        out.append(String.format(format, "scenario", "figure", "target", "pass"));
        out.append(String.format(format, "-".repeat(52), "-".repeat(46), "-".repeat(30), "----"));
        for (Figure f : figures) {
            out.append(String.format(format, f.scenario(), f.figure(), f.target(), f.pass() ? "yes" : "NO"));
        }
        for (Figure f : figures) {
            out.append("  ").append(f.scenario()).append(": ").append(f.detail()).append(System.lineSeparator());
        }
        return out.toString();
    }

    static Path writeJson(Path dir, String mode, List<Figure> figures) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve("bench-" + mode + "-" + Instant.now().toString().replace(':', '-') + ".json");
        Files.writeString(file, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(
                Map.of("mode", mode, "at", Instant.now().toString(), "machine_cores",
                        Runtime.getRuntime().availableProcessors(), "results", figures)));
        return file;
    }
}
