package io.drover.verify.check;

import io.drover.model.json.Json;
import io.drover.verify.history.Entry;
import io.drover.verify.history.History;
import io.drover.verify.history.Kinds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Check 2, never two at once: in no probing round do two incarnations of one index answer, unless one of them is
 * inside a documented overlap. The prober asks every workload process it finds on the machine (not only those the API
 * lists), so a duplicate nobody records is seen too. Documented overlaps (docs/verification.md):
 * <ul>
 *   <li>an evacuating twin (a drain, or a deployment's surge, SPEC 8.5 and 14), from the first time the API listed it
 *       or an event carried it as one until {@code evacuating-sync-interval + stop-grace + sync-interval} after the
 *       last (a twin asked to stop leaves the API at once while its container stops: a short-lived twin may never be
 *       listed between two listings, but its creation and removal are on the event stream);</li>
 *   <li>an instance on a cell that was away (its rep killed, its presence expired, the cell drained), until
 *       {@code 2 x sync-interval + stop-grace} after the cell was back: the returning rep's first sync stops what
 *       others now own.</li>
 * </ul>
 */
public final class NeverTwoAtOnce {

    public static final String NAME = "never-two";
    private static final long SLACK = 5_000_000;

    private NeverTwoAtOnce() {
    }

    public static CheckResult check(History history) {
        List<Entry.Probe> probes = history.all(Entry.Probe.class).filter(p -> p.target().equals("process")).toList();
        if (probes.isEmpty()) {
            return CheckResult.skipped(NAME, "no workload process probed");
        }
        Entry.Timings t = history.timings();
        long twinGrace = micros(t.evacuatingSyncInterval() + t.stopGrace() + t.syncInterval()) + SLACK;
        long awayGrace = micros(2 * t.syncInterval() + t.stopGrace()) + SLACK;
        Map<String, long[]> twinSeen = twins(history);
        Windows windows = Windows.of(history);
        Map<Integer, Map<String, List<Entry.Probe>>> rounds = new TreeMap<>();
        for (Entry.Probe p : probes) {
            if (p.answer() != null && !p.answer().isNull()) {
                rounds.computeIfAbsent(p.round(), r -> new TreeMap<>())
                        .computeIfAbsent(p.answer().path("process_guid").asString() + "/"
                                + p.answer().path("index").asInt(), k -> new ArrayList<>()).add(p);
            }
        }
        List<Anomaly> anomalies = new ArrayList<>();
        Map<String, Boolean> reported = new HashMap<>();
        int judged = 0;
        for (Map<String, List<Entry.Probe>> round : rounds.values()) {
            for (Map.Entry<String, List<Entry.Probe>> slot : round.entrySet()) {
                judged++;
                List<Entry.Probe> answering = slot.getValue().stream()
                        .filter(p -> !excused(p, twinSeen, twinGrace, windows, awayGrace)).toList();
                if (answering.stream().map(p -> p.answer().path("instance_guid").asString()).distinct().count() < 2) {
                    continue;
                }
                String pair = answering.stream().map(p -> p.answer().path("instance_guid").asString()).sorted()
                        .toList().toString();
                if (reported.putIfAbsent(pair, true) == null) {
                    anomalies.add(new Anomaly(NAME, slot.getKey(), answering.get(0).complete(),
                            "two incarnations of one index answered in the same round, outside any documented overlap",
                            answering.stream().map(NeverTwoAtOnce::describe).toList()));
                }
            }
        }
        return CheckResult.ran(NAME, anomalies, Map.of("slot_rounds", judged));
    }

    /** instance guid -> {first, last} time it was listed, or carried by an event, as an evacuating twin. */
    private static Map<String, long[]> twins(History history) {
        Map<String, long[]> seen = new HashMap<>();
        // the API's stream only: the topic's events can arrive long after the fact (a broker outage), and a twin's window
        // stretched to their arrival would excuse overlaps it never covered
        history.all(Entry.Event.class).filter(e -> !e.fromKafka()).forEach(e -> e.data().forEach(side -> {
            if (side.path("evacuating").asBoolean() && side.hasNonNull("instance_guid")) {
                long[] w = seen.computeIfAbsent(side.path("instance_guid").asString(),
                        g -> new long[] { e.received(), e.received() });
                w[0] = Math.min(w[0], e.received());
                w[1] = Math.max(w[1], e.received());
            }
        }));
        for (Entry.Call listing : history.calls(Kinds.LIST_ACTUALS)) {
            if (listing.status() != 200) {
                continue;
            }
            Json.tree(listing.body()).forEach(a -> {
                if (a.path("evacuating").asBoolean()) {
                    long[] w = seen.computeIfAbsent(a.path("instance_guid").asString(),
                            g -> new long[] { listing.invoke(), listing.complete() });
                    w[0] = Math.min(w[0], listing.invoke());
                    w[1] = Math.max(w[1], listing.complete());
                }
            });
        }
        return seen;
    }

    private static boolean excused(Entry.Probe p, Map<String, long[]> twinSeen, long twinGrace, Windows windows,
            long awayGrace) {
        long[] twin = twinSeen.get(p.answer().path("instance_guid").asString());
        if (twin != null && p.invoke() >= twin[0] - twinGrace && p.invoke() <= twin[1] + twinGrace) {
            return true;
        }
        return windows.away(p.cell(), p.invoke(), awayGrace);
    }

    private static String describe(Entry.Probe p) {
        return String.format("round %d at %.3fs: pid %d on %s answered %s", p.round(), p.complete() / 1e6, p.pid(),
                p.cell(), p.answer());
    }

    static long micros(double seconds) {
        return Math.round(seconds * 1_000_000);
    }
}
