package io.drover.verify.check;

import io.drover.model.json.Json;
import io.drover.verify.history.Entry;
import io.drover.verify.history.History;
import io.drover.verify.history.Kinds;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * When each cell was away or being drained, as the history shows it: a fault on its rep (killed, drained, cut off the
 * network) from the fault's start until it was healed, and the rounds in which the API did not list the cell (its
 * presence expired, a rep too slow to beat). The documented overlaps of two instances of one index (SPEC 8.5, 12) all
 * begin in such a window and end within a grace after it.
 */
public final class Windows {

    /** One interval, microseconds of the run. */
    public record Window(long start, long end) {
        boolean covers(long at, long grace) {
            return at >= start && at <= end + grace;
        }
    }

    private final Map<String, List<Window>> byCell;
    private final List<Window> database;

    private Windows(Map<String, List<Window>> byCell, List<Window> database) {
        this.byCell = byCell;
        this.database = database;
    }

    public static Windows of(History history) {
        Map<String, List<Window>> byCell = new TreeMap<>();
        List<Window> database = new ArrayList<>();
        for (Entry.Fault f : history.faults()) {
            if (f.kind().equals(FaultKinds.DATABASE)) {
                database.add(new Window(f.start(), f.end()));
            } else if (f.kind().equals(FaultKinds.REP_KILL) || f.kind().equals(FaultKinds.DRAIN)
                    || f.kind().equals(FaultKinds.PARTITION)) {
                byCell.computeIfAbsent(f.target(), c -> new ArrayList<>()).add(new Window(f.start(), f.end()));
            }
        }
        Set<String> known = new HashSet<>();
        List<Entry.Call> listings = history.calls(Kinds.LIST_CELLS);
        listings.stream().filter(c -> c.status() == 200)
                .forEach(c -> Json.tree(c.body()).forEach(cell -> known.add(cell.path("cell_id").asString())));
        for (Entry.Call c : listings) {
            if (c.status() != 200) {
                continue;
            }
            Set<String> listed = new HashSet<>();
            Json.tree(c.body()).forEach(cell -> {
                if (!"EVACUATING".equals(cell.path("state").asString())) {
                    listed.add(cell.path("cell_id").asString());
                }
            });
            for (String cell : known) {
                if (!listed.contains(cell)) {
                    byCell.computeIfAbsent(cell, k -> new ArrayList<>()).add(new Window(c.invoke(), c.complete()));
                }
            }
        }
        return new Windows(byCell, database);
    }

    /** Whether {@code cell} was away at some moment in {@code [at - grace, at]}. */
    public boolean away(String cell, long at, long grace) {
        return cell != null && byCell.getOrDefault(cell, List.of()).stream().anyMatch(w -> w.covers(at, grace));
    }

    /** Whether the database was down at some moment of {@code [from, to]}, or within {@code grace} before it. */
    public boolean databaseDown(long from, long to, long grace) {
        return database.stream().anyMatch(w -> from <= w.end() + grace && to >= w.start());
    }
}
