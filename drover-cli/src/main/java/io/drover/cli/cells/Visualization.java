package io.drover.cli.cells;

import io.drover.cli.json.Json;
import io.drover.cli.json.JsonNode;
import io.drover.cli.json.ObjectNode;
import io.drover.cli.output.Ansi;
import io.drover.cli.output.Output;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ltc visualize}'s picture: a row per cell with one mark per instance on it, coloured by state (a dot each on a
 * terminal; a letter each elsewhere: R running, C claimed), and a row for the instances on no cell (U unclaimed,
 * X crashed). Pure.
 */
final class Visualization {

    static final String UNPLACED = "(no cell)";

    private Visualization() {
    }

    static List<String> lines(List<JsonNode> cells, List<JsonNode> actuals, Output output) {
        Map<String, List<String>> states = byCell(cells, actuals);
        int width = states.keySet().stream().mapToInt(String::length).max().orElse(0);
        List<String> lines = new ArrayList<>();
        states.forEach((cell, onIt) -> {
            StringBuilder line = new StringBuilder(cell).append(" ".repeat(width - cell.length() + 2));
            onIt.stream().sorted(Comparator.comparingInt(Visualization::rank)).forEach(s -> line.append(mark(s, output)));
            line.append("  ").append(onIt.size());
            lines.add(line.toString());
        });
        lines.add("");
        lines.add(output.color() ? legend(output) : "R running  C claimed (starting)  U unclaimed  X crashed");
        return lines;
    }

    /** One JSON object per cell: its id, zone and the count of instances in each state. */
    static List<ObjectNode> json(List<JsonNode> cells, List<JsonNode> actuals) {
        Map<String, String> zones = new LinkedHashMap<>();
        cells.forEach(c -> zones.put(c.path("cell_id").asString(), c.path("zone").asString()));
        List<ObjectNode> out = new ArrayList<>();
        byCell(cells, actuals).forEach((cell, onIt) -> {
            ObjectNode node = Json.object().put("cell_id", UNPLACED.equals(cell) ? null : cell)
                    .put("zone", zones.get(cell)).put("instances", onIt.size());
            ObjectNode counts = node.putObject("states");
            onIt.forEach(s -> counts.put(s, counts.path(s).asInt(0) + 1));
            out.add(node);
        });
        return out;
    }

    private static Map<String, List<String>> byCell(List<JsonNode> cells, List<JsonNode> actuals) {
        Map<String, List<String>> states = new LinkedHashMap<>();
        cells.forEach(c -> states.put(c.path("cell_id").asString(), new ArrayList<>()));
        for (JsonNode a : actuals) {
            String cell = a.path("cell_id").asString("");
            states.computeIfAbsent(cell.isEmpty() ? UNPLACED : cell, k -> new ArrayList<>())
                    .add(a.path("state").asString());
        }
        List<String> unplaced = states.remove(UNPLACED);
        if (unplaced != null) {
            states.put(UNPLACED, unplaced);
        }
        return states;
    }

    private static int rank(String state) {
        return switch (state) {
            case "RUNNING" -> 0;
            case "CLAIMED" -> 1;
            case "UNCLAIMED" -> 2;
            default -> 3;
        };
    }

    private static String mark(String state, Output output) {
        if (!output.color()) {
            return switch (state) {
                case "RUNNING" -> "R";
                case "CLAIMED" -> "C";
                case "UNCLAIMED" -> "U";
                default -> "X";
            };
        }
        return switch (state) {
            case "RUNNING" -> Ansi.GREEN.paint("●");
            case "CLAIMED" -> Ansi.YELLOW.paint("●");
            case "UNCLAIMED" -> Ansi.CYAN.paint("○");
            default -> Ansi.RED.paint("●");
        };
    }

    private static String legend(Output output) {
        return mark("RUNNING", output) + " running  " + mark("CLAIMED", output) + " claimed (starting)  "
                + mark("UNCLAIMED", output) + " unclaimed  " + mark("CRASHED", output) + " crashed";
    }
}
