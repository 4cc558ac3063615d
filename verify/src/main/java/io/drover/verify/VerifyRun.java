package io.drover.verify;

import io.drover.verify.check.CheckResult;
import io.drover.verify.check.Checks;
import io.drover.verify.check.Convergence;
import io.drover.verify.check.Tasks;
import io.drover.verify.fault.ClusterControl;
import io.drover.verify.fault.Drains;
import io.drover.verify.fault.FaultInjector;
import io.drover.verify.fault.FaultPlan;
import io.drover.verify.history.Entry;
import io.drover.verify.history.History;
import io.drover.verify.history.HistoryFile;
import io.drover.verify.history.RunClock;
import io.drover.verify.observe.CallbackServer;
import io.drover.verify.observe.EventRecorder;
import io.drover.verify.observe.KafkaEventRecorder;
import io.drover.verify.observe.Processes;
import io.drover.verify.observe.Prober;
import io.drover.verify.observe.Snapshots;
import io.drover.verify.workload.ApiClient;
import io.drover.verify.workload.Client;
import io.drover.verify.workload.Site;
import io.drover.verify.workload.Workload;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * One recorded run on a started cluster: the observers start (the API's event stream, the Kafka topic, the callback
 * server, the prober), then the workload (random clients, or a scenario's script) runs while faults are injected;
 * then the faults are healed, the clients stop, and the cluster is watched until it converged or the deadline passed; then the history is checked.
 */
public final class VerifyRun {

    /** What to run: a name for the files, the seed, how long the workload lasts, how many clients on how many keys. */
    public record Options(String name, long seed, Duration workload, int clients, int keys, Set<String> faults,
            Duration deadline) {
    }

    /** What a scenario's script may use. */
    public record Context(ApiClient api, Workload workload, ClusterControl control, Drains drains, HistoryFile history,
            RunClock clock, CallbackServer callbacks, Prober prober) {
    }

    /** A scripted workload (the planted bugs' scenarios), instead of the random clients. */
    public interface Script {
        void run(Context context) throws Exception;
    }

    /**
     * The recorded history, its file, what the checks found, the clients' calls, the faults injected and the kinds
     * asked for that this cluster cannot inject.
     */
    public record Outcome(History history, Path file, List<CheckResult> results, long ops, int faults,
            Set<String> notInjected) {

        public long anomalies() {
            return results.stream().mapToLong(r -> r.anomalies().size()).sum();
        }
    }

    private VerifyRun() {
    }

    public static Outcome run(Session session, Options options, Script script) {
        RunClock clock = new RunClock();
        String runId = "s" + options.seed() + "-" + HexFormat.of().toHexDigits((short) new Random().nextInt());
        List<String> keys = Workload.keys(runId, options.keys());
        Path file = session.results().resolve(Instant.now().toString().replace(':', '-') + "-" + options.name()
                + "-seed" + options.seed() + ".jsonl");
        HistoryFile history = HistoryFile.create(file);
        Entry.Timings cluster = session.timings();
        Entry.Timings timings = new Entry.Timings(cluster.presenceTtl(), cluster.syncInterval(), cluster.stopGrace(),
                options.deadline().toSeconds(), cluster.evacuatingSyncInterval());
        history.add(new Entry.Meta(runId, options.seed(), clock.startedAtEpochMs(), session.mode(), keys, timings));
        ApiClient api = new ApiClient(session.receptorUrl(), session.user(), session.password(), history, clock);
        api.call("setup", "setup", "verify", "PUT", "/v1/domains/verify", null, null);
        Site site = session.site();
        int faults = 0;
        try (CallbackServer callbacks = new CallbackServer(history, clock, options.seed(), site.callbackHost());
                EventRecorder events = new EventRecorder(session.receptorUrl(), api.authorization(), history, clock)
                        .start();
                KafkaEventRecorder topic = session.kafkaBootstrapServers() == null ? null
                        : new KafkaEventRecorder(session.kafkaBootstrapServers(), history, clock).start();
                Prober prober = new Prober(api, keys, session.marker(), site::reach, history, clock).start()) {
            Workload workload = new Workload(runId, keys, session.marker(), site.instanceBind(), site.taskFile(runId),
                    callbacks.url());
            history.add(new Entry.Phase("workload", clock.now()));
            if (script != null) {
                script.run(new Context(api, workload, session.control(), session.drains(), history, clock, callbacks,
                        prober));
            } else {
                faults = randomWorkload(session, options, api, workload, history, clock);
            }
            history.add(new Entry.Phase("healed", clock.now()));
            boolean converged = new Snapshots(api, keys, session.marker(), history, clock).untilConverged(
                    options.deadline(), Duration.ofNanos(Convergence.settle(timings) * 1000),
                    () -> Tasks.check(history.history()).anomalies().stream()
                            .noneMatch(a -> a.message().contains("no callback")));
            if (!converged) {
                String diagnostics = session.control().diagnostics();
                Path saved = Diagnostics.save(diagnostics, file);
                // a planted bug's run is expected not to converge: its diagnostics are kept, not printed over the
                // random run's, which CI's output must still show
                if (saved != null && script == null) {
                    Diagnostics.print(diagnostics, saved, System.out);
                }
            }
            history.add(new Entry.Phase("quiescent", clock.now()));
            // one more round of probes and events after the last snapshot
            pause(1500);
        } catch (Exception e) {
            throw new IllegalStateException("run " + options.name() + " failed", e);
        }
        Snapshots.taskRuns(site.taskLines(runId)).forEach(history::add);
        history.close();
        History recorded = history.history();
        long ops = recorded.all(Entry.Call.class).filter(c -> c.process().startsWith("c")).count();
        Set<String> notInjected = new TreeSet<>(script == null ? options.faults() : Set.of());
        notInjected.removeAll(session.control().supported());
        Outcome outcome = new Outcome(recorded, file, Checks.run(recorded), ops, faults, notInjected);
        cleanUp(session, keys);
        return outcome;
    }

    /** Deletes the run's LRPs (unrecorded: the history is closed) and waits for their processes to go. */
    private static void cleanUp(Session session, List<String> keys) {
        HttpClient http = HttpClient.newHttpClient();
        String authorization = ApiClient.basic(session.user(), session.password());
        for (String key : keys) {
            try {
                http.send(HttpRequest.newBuilder(URI.create(session.receptorUrl() + "/v1/desired_lrps/" + key))
                        .header("Authorization", authorization).DELETE().timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.discarding());
            } catch (Exception e) {
                // left for the next run's convergence to show
            }
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline && Processes.scan(session.marker()).stream()
                .anyMatch(p -> keys.contains(p.processGuid()))) {
            pause(500);
        }
    }

    private static int randomWorkload(Session session, Options options, ApiClient api, Workload workload,
            HistoryFile history, RunClock clock) throws InterruptedException {
        Set<String> kinds = new HashSet<>(options.faults());
        kinds.retainAll(session.control().supported());
        List<FaultPlan.Planned> plan = FaultPlan.of(options.seed(), options.workload(), kinds,
                session.control().cells().size(), session.control().faultLengths(
                        Duration.ofMillis(Math.round(session.timings().presenceTtl() * 1000))));
        System.out.println("verify: fault plan: " + (plan.isEmpty() ? "none" : plan.stream()
                .map(p -> String.format("%s%s at %.0f s%s", p.kind(), p.rep() >= 0 && !p.kind().equals("workload-kill")
                        && !p.kind().equals("message-faults") ? " (rep " + p.rep() + ")" : "", p.at().toMillis() / 1e3,
                        p.length().isZero() ? "" : String.format(" for %.0f s", p.length().toMillis() / 1e3)))
                .collect(Collectors.joining(", "))));
        FaultInjector faults = new FaultInjector(session.control(), session.drains(), api, session.marker(), history,
                clock, options.seed(), plan);
        List<Thread> clients = new ArrayList<>();
        long end = System.nanoTime() + options.workload().toNanos();
        for (int i = 1; i <= options.clients(); i++) {
            Thread t = new Thread(new Client(i, options.seed(), api, workload, () -> System.nanoTime() < end),
                    "verify-client-" + i);
            t.setDaemon(true);
            clients.add(t);
        }
        faults.start();
        clients.forEach(Thread::start);
        for (Thread t : clients) {
            t.join();
        }
        faults.healAll();
        return faults.injected();
    }

    public static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
