package io.drover.verify.planted;

import io.drover.model.json.Json;
import io.drover.model.messaging.Topics;
import io.drover.model.planted.PlantedBug;
import io.drover.verify.Session;
import io.drover.verify.VerifyRun;
import io.drover.verify.check.CheckResult;
import io.drover.verify.check.Convergence;
import io.drover.verify.check.DesiredLinearizable;
import io.drover.verify.check.Events;
import io.drover.verify.check.FaultKinds;
import io.drover.verify.check.NeverTwoAtOnce;
import io.drover.verify.check.RecordTruth;
import io.drover.verify.check.Tasks;
import io.drover.verify.fault.FaultyConsumerInterceptor;
import io.drover.verify.history.Entry;
import io.drover.verify.history.Kinds;
import io.drover.verify.workload.Bodies;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;

/**
 * The checker seen failing: for each check, a scenario that turns one guard of Drover off ({@link PlantedBug}, a JVM
 * system property no production configuration reaches) and must make that check report an anomaly. Each scenario is a
 * recorded run of its own on the same cluster, checked by the same checks as the random run.
 */
public final class PlantedBugs {

    /**
     * A planted bug, the check that must catch it, how long the cluster gets to converge, what to do, and whether the
     * bug stays planted while the cluster is watched converging (else it is taken out when the script ends).
     */
    record Scenario(PlantedBug bug, String check, Duration deadline, VerifyRun.Script script,
            boolean plantedThroughQuiescence) {

        Scenario(PlantedBug bug, String check, Duration deadline, VerifyRun.Script script) {
            this(bug, check, deadline, script, false);
        }
    }

    private PlantedBugs() {
    }

    static List<Scenario> all() {
        return List.of(
                new Scenario(PlantedBug.IF_MATCH, DesiredLinearizable.NAME, Duration.ofSeconds(20), PlantedBugs::staleIfMatch),
                new Scenario(PlantedBug.CLAIM_VERSION_CHECK, RecordTruth.NAME, Duration.ofSeconds(40),
                        PlantedBugs::stalePlacementClaims),
                new Scenario(PlantedBug.SYNC_KEEPS_DUPLICATES, NeverTwoAtOnce.NAME, Duration.ofSeconds(40),
                        PlantedBugs::returningRepKeepsItsDuplicate),
                new Scenario(PlantedBug.MISSING_INDEX_REPAIR, Convergence.NAME, Duration.ofSeconds(20),
                        PlantedBugs::restartedIndexNeverComesBack, true),
                new Scenario(PlantedBug.TASK_AT_MOST_ONCE, Tasks.NAME, Duration.ofSeconds(40),
                        PlantedBugs::redeliveredTaskPlacements),
                new Scenario(PlantedBug.CALLBACK_RETRY, Tasks.NAME, Duration.ofSeconds(20), PlantedBugs::callbacksAnswered503),
                new Scenario(PlantedBug.OUTBOX_ACK, Events.NAME, Duration.ofSeconds(60), PlantedBugs::brokerOutage));
    }

    /** Runs the scenarios named ({@code all}, or bug names separated by commas); true when every one was caught. */
    public static boolean demonstrate(Session session, String which, long seed, PrintStream out) {
        Set<String> names = which.equals("all") ? null : Set.copyOf(Arrays.asList(which.split(",")));
        boolean allCaught = true;
        int ran = 0;
        int caughtCount = 0;
        for (Scenario s : all()) {
            if (names != null && !names.contains(s.bug().bugName())) {
                continue;
            }
            VerifyRun.Outcome outcome;
            try {
                outcome = VerifyRun.run(session, new VerifyRun.Options("planted-" + s.bug().bugName(), seed,
                        Duration.ZERO, 0, 2, Set.of(), s.deadline()), context -> {
                            try {
                                s.script().run(context);
                            } finally {
                                if (!s.plantedThroughQuiescence()) {
                                    unplant();
                                }
                                FaultyConsumerInterceptor.release(Topics.AUCTION_RESULTS);
                                FaultyConsumerInterceptor.release(Topics.START_REQUESTS);
                                FaultyConsumerInterceptor.redeliver(Topics.AUCTION_RESULTS, false);
                            }
                        });
            } finally {
                unplant();
            }
            CheckResult target = outcome.results().stream().filter(r -> r.check().equals(s.check())).findFirst()
                    .orElseThrow();
            boolean caught = !target.anomalies().isEmpty();
            allCaught &= caught;
            ran++;
            caughtCount += caught ? 1 : 0;
            out.printf("planted %s: %s by %s (%d anomalies; all checks: %s)%n", s.bug().bugName(),
                    caught ? "caught" : "NOT CAUGHT", s.check(), target.anomalies().size(), outcome.results().stream()
                            .map(r -> r.check() + " " + (r.wasSkipped() ? "skipped" : r.anomalies().size()))
                            .toList());
            if (caught) {
                out.println("    first: " + target.anomalies().get(0));
                target.anomalies().get(0).excerpt().stream().limit(4).forEach(l -> out.println("        " + l));
            }
            out.println("    history: " + outcome.file());
        }
        out.printf("verify: planted bugs caught: %d of %d%n", caughtCount, ran);
        return allCaught;
    }

    // --- the scenarios ---

    /** Two clients read the same version; both write with it in If-Match: without the guard both writes win. */
    private static void staleIfMatch(VerifyRun.Context ctx) {
        String key = ctx.workload().lrpKeys().get(0);
        ctx.api().call("c1", Kinds.DESIRE, key, "POST", "/v1/desired_lrps", null,
                Bodies.lrp(key, 0, key + "-c1", ctx.workload().marker()));
        plant(PlantedBug.IF_MATCH);
        for (int i = 0; i < 3; i++) {
            Entry.Call first = read(ctx, "c1", key);
            Entry.Call second = read(ctx, "c2", key);
            ctx.api().call("c1", Kinds.UPDATE_IF_MATCH, key, "PUT", "/v1/desired_lrps/" + key, first.etag(),
                    "{\"annotation\": \"c1-" + i + "\"}");
            ctx.api().call("c2", Kinds.UPDATE_IF_MATCH, key, "PUT", "/v1/desired_lrps/" + key, second.etag(),
                    "{\"annotation\": \"c2-" + i + "\"}");
            read(ctx, "c3", key);
        }
    }

    /**
     * Auction results are held back while an LRP is desired at version 1, and start requests while it is deployed to
     * version 2 at once: the deployer rolls its slots, which are still UNCLAIMED, so the held placements of version 1
     * are stale when they arrive, and none of version 2 is made. A restart of an instance of another LRP on every cell
     * sends each rep a stop request, whose poll brings the held placements. Without the claim's check, each cell claims
     * a slot that wants version 2 with an instance of version 1: the record says 2, the instance runs 1.
     */
    private static void stalePlacementClaims(VerifyRun.Context ctx) {
        String key = ctx.workload().lrpKeys().get(0);
        String nudge = ctx.workload().lrpKeys().get(1);
        String marker = ctx.workload().marker();
        ctx.api().call("c2", Kinds.DESIRE, nudge, "POST", "/v1/desired_lrps", null, Bodies.lrp(nudge, 3, nudge + "-c1",
                marker));
        await(Duration.ofSeconds(60), () -> running(ctx, nudge) == 3);
        FaultyConsumerInterceptor.hold(Topics.AUCTION_RESULTS);
        ctx.api().call("c1", Kinds.DESIRE, key, "POST", "/v1/desired_lrps", null, Bodies.lrp(key, 3, key + "-c1", marker));
        VerifyRun.pause(3000);
        FaultyConsumerInterceptor.hold(Topics.START_REQUESTS);
        ctx.api().call("c1", Kinds.DEPLOY, key, "POST", "/v1/desired_lrps/" + key + "/deployments", null,
                Bodies.deployment(key, key + "-d2", marker));
        VerifyRun.pause(3000);
        plant(PlantedBug.CLAIM_VERSION_CHECK);
        FaultyConsumerInterceptor.release(Topics.AUCTION_RESULTS);
        for (int index = 0; index < 3; index++) {
            ctx.api().call("c2", Kinds.RESTART, nudge, "DELETE", "/v1/actual_lrps/" + nudge + "/index/" + index, null,
                    null);
        }
        await(Duration.ofSeconds(30), () -> running(ctx, key) == 3);
        FaultyConsumerInterceptor.release(Topics.START_REQUESTS);
        VerifyRun.pause(5000);
    }

    /**
     * A rep killed (its workloads left running) until its instances run elsewhere, then started again: its first sync
     * must destroy the containers whose slots others now own. Without that, two incarnations of an index answer.
     */
    private static void returningRepKeepsItsDuplicate(VerifyRun.Context ctx) {
        String key = ctx.workload().lrpKeys().get(0);
        ctx.api().call("c1", Kinds.DESIRE, key, "POST", "/v1/desired_lrps", null, Bodies.lrp(key, 3, key + "-c1",
                ctx.workload().marker()));
        await(Duration.ofSeconds(60), () -> running(ctx, key) == 3);
        String cell = actuals(ctx, key).get(0).path("cell_id").asString();
        int rep = ctx.control().cells().indexOf(cell);
        plant(PlantedBug.SYNC_KEEPS_DUPLICATES);
        long start = ctx.clock().now();
        ctx.control().killRep(rep);
        await(Duration.ofSeconds(60), () -> running(ctx, key) == 3 && actuals(ctx, key).stream()
                .noneMatch(a -> cell.equals(a.path("cell_id").asString())));
        ctx.control().restartRep(rep);
        ctx.history().add(new Entry.Fault(FaultKinds.REP_KILL, cell, start, ctx.clock().now(), "planted scenario"));
        VerifyRun.pause(25_000);
    }

    /** An instance restarted while the converger never creates a missing index: the LRP stays one short. */
    private static void restartedIndexNeverComesBack(VerifyRun.Context ctx) {
        String key = ctx.workload().lrpKeys().get(0);
        ctx.api().call("c1", Kinds.DESIRE, key, "POST", "/v1/desired_lrps", null, Bodies.lrp(key, 2, key + "-c1",
                ctx.workload().marker()));
        await(Duration.ofSeconds(60), () -> running(ctx, key) == 2);
        plant(PlantedBug.MISSING_INDEX_REPAIR);
        ctx.api().call("c1", Kinds.RESTART, key, "DELETE", "/v1/actual_lrps/" + key + "/index/1", null, null);
    }

    /** Every auction result delivered twice, the second time late: a task must still run once. */
    private static void redeliveredTaskPlacements(VerifyRun.Context ctx) {
        plant(PlantedBug.TASK_AT_MOST_ONCE);
        FaultyConsumerInterceptor.redeliver(Topics.AUCTION_RESULTS, true);
        for (int i = 0; i < 12; i++) {
            String guid = ctx.workload().lrpKeys().get(0) + "-task-" + i;
            ctx.api().call("c1", Kinds.TASK_SUBMIT, guid, "POST", "/v1/tasks", null,
                    Bodies.task(guid, ctx.workload().taskRuns(), 100, null, ctx.workload().marker()));
            VerifyRun.pause(700);
        }
        VerifyRun.pause(5000);
    }

    /** A callback server that answers every first attempt 503: each task must be called back again. */
    private static void callbacksAnswered503(VerifyRun.Context ctx) {
        ctx.callbacks().failEveryFirstAttempt();
        plant(PlantedBug.CALLBACK_RETRY);
        for (int i = 0; i < 4; i++) {
            String guid = ctx.workload().lrpKeys().get(0) + "-task-" + i;
            ctx.api().call("c1", Kinds.TASK_SUBMIT, guid, "POST", "/v1/tasks", null, Bodies.task(guid,
                    ctx.workload().taskRuns(), 100, ctx.callbacks().url() + "/" + guid, ctx.workload().marker()));
        }
        VerifyRun.pause(8000);
    }

    /**
     * The broker stopped for longer than the producers' delivery timeout while LRPs are desired: the outbox must keep
     * every row until Kafka acknowledged it. Without that, the instances' events are lost, and the stream misses them.
     */
    private static void brokerOutage(VerifyRun.Context ctx) {
        String key = ctx.workload().lrpKeys().get(0);
        plant(PlantedBug.OUTBOX_ACK);
        long start = ctx.clock().now();
        ctx.control().stopBroker();
        try {
            ctx.api().call("c1", Kinds.DESIRE, key, "POST", "/v1/desired_lrps", null, Bodies.lrp(key, 2, key + "-c1",
                    ctx.workload().marker()));
            VerifyRun.pause(25_000);
        } finally {
            ctx.control().startBroker();
            ctx.history().add(new Entry.Fault(FaultKinds.KAFKA, "broker", start, ctx.clock().now(), "planted scenario"));
        }
        await(Duration.ofSeconds(60), () -> running(ctx, key) == 2);
    }

    // --- helpers ---

    private static void plant(PlantedBug bug) {
        System.setProperty(PlantedBug.PROPERTY, bug.bugName());
    }

    private static void unplant() {
        System.clearProperty(PlantedBug.PROPERTY);
    }

    private static Entry.Call read(VerifyRun.Context ctx, String client, String key) {
        return ctx.api().call(client, Kinds.READ_DESIRED, key, "GET", "/v1/desired_lrps/" + key, null, null);
    }

    private static List<JsonNode> actuals(VerifyRun.Context ctx, String key) {
        Entry.Call call = ctx.api().call("scenario", Kinds.LIST_ACTUALS, key, "GET", "/v1/actual_lrps/" + key, null,
                null);
        if (call.status() != 200) {
            return List.of();
        }
        List<JsonNode> list = new ArrayList<>();
        Json.tree(call.body()).forEach(a -> {
            if (!a.path("evacuating").asBoolean()) {
                list.add(a);
            }
        });
        return list;
    }

    private static long running(VerifyRun.Context ctx, String key) {
        return actuals(ctx, key).stream().filter(a -> "RUNNING".equals(a.path("state").asString())).count();
    }

    private static void await(Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            VerifyRun.pause(500);
        }
    }
}
