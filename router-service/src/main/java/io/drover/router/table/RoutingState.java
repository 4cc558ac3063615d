package io.drover.router.table;

import io.drover.model.lrp.ActualLrpState;
import io.drover.model.read.RouteRows;
import io.drover.model.read.TransactionSnapshot;
import io.drover.model.route.CfRoute;
import io.drover.model.route.CfRoutes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything a router knows, and the table it makes of it: the routed LRPs (their routes mention the
 * {@code cf-router}), every row of theirs with its epoch and version, and the instances whose cells were asked to stop
 * them. Pure and single-threaded: the {@code TableKeeper} feeds it and publishes its {@link #table()}.
 *
 * <p>Changes are applied by version, so a change older than what is held is dropped, whatever brought it: a row
 * replaces another of the same incarnation (epoch) only at a higher version, a removal removes only the incarnation it
 * names, and a change of another incarnation than the one held is older than it (a row's removal is published before
 * its slot's next row is created, and a slot's events arrive in order).
 *
 * <p>Versions cannot judge a change of a row the state does not hold: after a read from the read model (a rebuild, or
 * an LRP's rows loaded when it became routed), the events of that read's past that the feed had not delivered yet
 * would put back rows deleted before the read, until their removals followed, seconds later with the feed behind. So
 * every read keeps its {@link TransactionSnapshot}, and an event whose transaction that snapshot saw is dropped: the
 * read showed its effect, or what came after it. A rebuild reads the desired LRPs and their rows, a load an LRP's rows
 * only, so a desired LRP's change is judged by the rebuild's snapshot and a row's by the latest read of its LRP's rows.
 *
 * <p>An instance is routable when its record is RUNNING or it is a twin (a twin asked to stop is announced removed),
 * and its cell was not asked to stop it.
 */
public final class RoutingState {

    private static final Comparator<Backend> ORDER = Comparator.comparing(Backend::processGuid)
            .thenComparingInt(Backend::index).thenComparing(Backend::evacuating);

    private final Map<String, Routed> lrps = new HashMap<>();
    private final Map<String, Map<Seen.RowKey, Seen.Row>> rows = new HashMap<>();
    /** Instance guids asked to stop, and when the router learnt it (to forget them eventually). */
    private final Map<String, Long> stopping = new HashMap<>();
    private final Map<String, Set<String>> lrpsByHost = new HashMap<>();
    private final Map<String, HostRoute> routes = new HashMap<>();
    private final Set<String> dirtyHosts = new HashSet<>();
    private final Set<String> toLoad = new LinkedHashSet<>();
    /** The snapshot of the last rebuild's read, and of the loads since, by LRP: the events they saw are dropped. */
    private TransactionSnapshot rebuiltIn = TransactionSnapshot.NONE;
    private final Map<String, TransactionSnapshot> loadedIn = new HashMap<>();
    private RouteTable table = RouteTable.EMPTY;

    /** A routed LRP and its parsed routes. */
    private record Routed(Seen.Lrp seen, List<CfRoute> routes) {
    }

    /** Whether {@code processGuid} is a routed LRP, whose rows this state follows. */
    public boolean routes(String processGuid) {
        return lrps.containsKey(processGuid);
    }

    /** Applies one change whose transaction is not known (a stop request); {@code nowMillis} stamps a stop request. */
    public void apply(Seen change, long nowMillis) {
        apply(change, 0, nowMillis);
    }

    /**
     * Applies one change written by transaction {@code txId} (0: not known), unless the read the state holds of what
     * it changes saw that transaction; {@code nowMillis} stamps a stop request.
     */
    public void apply(Seen change, long txId, long nowMillis) {
        if (change instanceof Seen.DesiredChange d) {
            if (txId == 0 || !rebuiltIn.saw(txId)) {
                desired(d); // desired LRPs are read by a rebuild only (a load reads an LRP's rows)
            }
        } else if (change instanceof Seen.ActualChange a) {
            if (!rowsRead(a.after() == null ? a.before().processGuid() : a.after().processGuid(), txId)) {
                actual(a);
            }
        } else if (change instanceof Seen.StopRequested s) {
            stopRequested(s, nowMillis);
        }
    }

    /**
     * The LRPs that became routed by an event since the last call: their rows were not followed, so the keeper reads
     * them ({@link #loaded}).
     */
    public Set<String> takeToLoad() {
        Set<String> taken = Set.copyOf(toLoad);
        toLoad.clear();
        return taken;
    }

    /**
     * The rows of one LRP as the read model holds them now, newer than every change applied so far (the keeper reads
     * after it applied them): they replace what is held. {@code stopRequested}: their guids asked to stop;
     * {@code snapshot}: the read's.
     */
    public void loaded(String processGuid, Collection<Seen.Row> read, Collection<String> stopRequested,
            TransactionSnapshot snapshot, long nowMillis) {
        if (!lrps.containsKey(processGuid)) {
            return;
        }
        loadedIn.put(processGuid, snapshot);
        stopRequested.forEach(guid -> stopping.putIfAbsent(guid, nowMillis));
        Map<Seen.RowKey, Seen.Row> ofLrp = new HashMap<>();
        for (Seen.Row row : read) {
            if (row.processGuid().equals(processGuid)) {
                ofLrp.put(row.key(), row);
            }
        }
        rows.put(processGuid, ofLrp);
        touch(processGuid);
    }

    /** Replaces everything with what the read model holds (a rebuild), as read in {@code snapshot}. */
    public void reset(Collection<Seen.Lrp> routed, Collection<Seen.Row> read, Collection<String> stopRequested,
            TransactionSnapshot snapshot, long nowMillis) {
        dirtyHosts.addAll(routes.keySet());
        lrps.clear();
        rows.clear();
        lrpsByHost.clear();
        toLoad.clear();
        loadedIn.clear();
        rebuiltIn = snapshot;
        stopRequested.forEach(guid -> stopping.putIfAbsent(guid, nowMillis));
        for (Seen.Lrp lrp : routed) {
            track(lrp);
        }
        for (Seen.Row row : read) {
            if (lrps.containsKey(row.processGuid())) {
                rows.computeIfAbsent(row.processGuid(), g -> new HashMap<>()).put(row.key(), row);
            }
        }
        toLoad.clear();
    }

    /** Forgets stop requests learnt before {@code beforeMillis} (their instances are long gone). */
    public void forgetStopsBefore(long beforeMillis) {
        stopping.values().removeIf(at -> at < beforeMillis);
    }

    /** The table as of the changes applied so far; recomputes only the hostnames they touched. */
    public RouteTable table() {
        if (dirtyHosts.isEmpty()) {
            return table;
        }
        for (String host : dirtyHosts) {
            Set<String> serving = lrpsByHost.get(host);
            if (serving == null || serving.isEmpty()) {
                routes.remove(host);
            } else {
                routes.put(host, new HostRoute(host, backends(host, serving)));
            }
        }
        dirtyHosts.clear();
        table = new RouteTable(routes);
        return table;
    }

    /** What the read model's route fingerprint counts and sums over this state ({@link RouteRows#fingerprint}). */
    public Fingerprint fingerprint() {
        long count = 0;
        long sum = 0;
        for (Routed lrp : lrps.values()) {
            count++;
            sum += RouteRows.hash(RouteRows.desiredEntry(lrp.seen().processGuid(), lrp.seen().epoch(),
                    lrp.seen().version()));
        }
        for (Map<Seen.RowKey, Seen.Row> ofLrp : rows.values()) {
            for (Seen.Row row : ofLrp.values()) {
                if (routable(row)) {
                    count++;
                    sum += RouteRows.hash(RouteRows.instanceEntry(row.processGuid(), row.index(), row.evacuating(),
                            row.instanceGuid(), row.epoch(), row.version()));
                }
            }
        }
        return new Fingerprint(count, sum);
    }

    /** A count of entries and the sum of their hashes (modulo 2^64). */
    public record Fingerprint(long rows, long sum) {
    }

    private void desired(Seen.DesiredChange change) {
        Seen.Lrp after = change.after();
        if (after == null) {
            Routed held = lrps.get(change.before().processGuid());
            if (held != null && held.seen().epoch().equals(change.before().epoch())) {
                untrack(held.seen().processGuid());
            }
            return;
        }
        Routed held = lrps.get(after.processGuid());
        if (held != null && (!held.seen().epoch().equals(after.epoch()) || held.seen().version() >= after.version())) {
            return; // older than what is held
        }
        if (!CfRoutes.mentioned(after.routesJson())) {
            if (held != null) {
                untrack(after.processGuid());
            }
            return;
        }
        if (held == null) {
            toLoad.add(after.processGuid());
        } else {
            hostsOf(held).forEach(host -> unindex(host, after.processGuid()));
        }
        track(after);
    }

    private void actual(Seen.ActualChange change) {
        Seen.Row after = change.after();
        if (after == null) {
            Seen.Row before = change.before();
            Map<Seen.RowKey, Seen.Row> ofLrp = rows.get(before.processGuid());
            Seen.Row held = ofLrp == null ? null : ofLrp.get(before.key());
            if (held != null && held.epoch().equals(before.epoch()) && held.version() <= before.version()) {
                ofLrp.remove(before.key());
                touch(before.processGuid());
            }
            return;
        }
        if (lrps.containsKey(after.processGuid()) && put(after)) {
            touch(after.processGuid());
        }
    }

    private void stopRequested(Seen.StopRequested stop, long nowMillis) {
        stopping.put(stop.instanceGuid(), nowMillis);
        if (lrps.containsKey(stop.processGuid())) {
            touch(stop.processGuid());
        }
    }

    /** Puts a row unless an incarnation's newer (or other) row is held; whether it did. */
    private boolean put(Seen.Row row) {
        Map<Seen.RowKey, Seen.Row> ofLrp = rows.computeIfAbsent(row.processGuid(), g -> new HashMap<>());
        Seen.Row held = ofLrp.get(row.key());
        if (held != null && (!held.epoch().equals(row.epoch()) || held.version() >= row.version())) {
            return false;
        }
        ofLrp.put(row.key(), row);
        return true;
    }

    private void track(Seen.Lrp lrp) {
        Routed routed = new Routed(lrp, CfRoutes.parse(lrp.routesJson()));
        lrps.put(lrp.processGuid(), routed);
        for (String host : hostsOf(routed)) {
            lrpsByHost.computeIfAbsent(host, h -> new HashSet<>()).add(lrp.processGuid());
            dirtyHosts.add(host);
        }
    }

    private void untrack(String processGuid) {
        Routed held = lrps.remove(processGuid);
        rows.remove(processGuid);
        toLoad.remove(processGuid);
        loadedIn.remove(processGuid);
        if (held != null) {
            hostsOf(held).forEach(host -> unindex(host, processGuid));
        }
    }

    private void unindex(String host, String processGuid) {
        Set<String> serving = lrpsByHost.get(host);
        if (serving != null) {
            serving.remove(processGuid);
            if (serving.isEmpty()) {
                lrpsByHost.remove(host);
            }
        }
        dirtyHosts.add(host);
    }

    private void touch(String processGuid) {
        Routed held = lrps.get(processGuid);
        if (held != null) {
            dirtyHosts.addAll(hostsOf(held));
        }
    }

    private List<Backend> backends(String host, Set<String> serving) {
        List<Backend> backends = new ArrayList<>();
        for (String processGuid : serving) {
            Routed lrp = lrps.get(processGuid);
            Map<Seen.RowKey, Seen.Row> ofLrp = rows.getOrDefault(processGuid, Map.of());
            for (CfRoute route : lrp.routes()) {
                if (!route.hostnames().contains(host)) {
                    continue;
                }
                for (Seen.Row row : ofLrp.values()) {
                    Integer hostPort = row.hostPorts().get(route.port());
                    if (routable(row) && hostPort != null && row.address() != null) {
                        backends.add(new Backend(processGuid, row.index(), row.instanceGuid(), row.address(), hostPort,
                                row.evacuating()));
                    }
                }
            }
        }
        backends.sort(ORDER);
        return backends;
    }

    /** Whether the read the state holds of {@code processGuid}'s rows saw transaction {@code txId}. */
    private boolean rowsRead(String processGuid, long txId) {
        return txId != 0 && loadedIn.getOrDefault(processGuid, rebuiltIn).saw(txId);
    }

    private boolean routable(Seen.Row row) {
        return (row.evacuating() || row.state() == ActualLrpState.RUNNING) && row.instanceGuid() != null
                && !stopping.containsKey(row.instanceGuid());
    }

    private static Set<String> hostsOf(Routed lrp) {
        Set<String> hosts = new LinkedHashSet<>();
        lrp.routes().forEach(r -> hosts.addAll(r.hostnames()));
        return hosts;
    }
}
