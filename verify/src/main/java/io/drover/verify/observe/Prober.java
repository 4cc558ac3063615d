package io.drover.verify.observe;

import io.drover.model.json.Json;
import io.drover.verify.history.Entry;
import io.drover.verify.history.HistoryFile;
import io.drover.verify.history.Kinds;
import io.drover.verify.history.RunClock;
import io.drover.verify.workload.ApiClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.BiFunction;
import tools.jackson.databind.JsonNode;

/**
 * Rounds of looking, about one a second: the cells, the desired LRPs and the instances of every key as the API lists
 * them (one recorded listing per key and round), the RUNNING tasks, then a request to every listed RUNNING address (at
 * the host port the site publishes it on) and to every workload process found on the machine, each recorded with what
 * it answered.
 */
public final class Prober implements AutoCloseable {

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofMillis(500)).build();
    private final ApiClient api;
    private final List<String> keys;
    private final String marker;
    private final BiFunction<String, Integer, String> reach;
    private final HistoryFile history;
    private final RunClock clock;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile int round;

    /** {@code reach}: where the checker reaches an instance listed at (address, host port). */
    public Prober(ApiClient api, List<String> keys, String marker, BiFunction<String, Integer, String> reach,
            HistoryFile history, RunClock clock) {
        this.api = api;
        this.keys = keys;
        this.marker = marker;
        this.reach = reach;
        this.history = history;
        this.clock = clock;
        this.thread = new Thread(this::loop, "verify-prober");
        this.thread.setDaemon(true);
    }

    public Prober start() {
        thread.start();
        return this;
    }

    public int round() {
        return round;
    }

    private void loop() {
        while (running) {
            long started = System.nanoTime();
            round++;
            try {
                round(round);
            } catch (RuntimeException e) {
                // a round that failed (the receptor away) is only a round less
            }
            long rest = 1000 - (System.nanoTime() - started) / 1_000_000;
            pause(Math.max(100, rest));
        }
    }

    void round(int r) {
        api.call("prober", Kinds.LIST_CELLS, "cells", "GET", "/v1/cells", null, null, r);
        api.call("prober", Kinds.LIST_DESIRED, "*", "GET", "/v1/desired_lrps", null, null, r);
        api.call("prober", Kinds.LIST_TASKS, "*", "GET", "/v1/tasks?state=RUNNING", null, null, r);
        for (String key : keys) {
            Entry.Call listing = api.call("prober", Kinds.LIST_ACTUALS, key, "GET", "/v1/actual_lrps/" + key, null,
                    null, r);
            if (listing.status() != 200) {
                continue;
            }
            for (JsonNode a : Json.tree(listing.body())) {
                if ("RUNNING".equals(a.path("state").asString()) && a.path("ports").size() > 0) {
                    String address = reach.apply(a.path("address").asString(),
                            a.path("ports").get(0).path("host_port").asInt());
                    probe(r, "listed", key, a.path("index").asInt(), address, -1, a.path("cell_id").asString(),
                            a.path("instance_guid").asString(), a.path("evacuating").asBoolean());
                }
            }
        }
        for (Entry.WorkloadProcess p : Processes.scan(marker)) {
            probe(r, "process", p.processGuid(), p.index(), "127.0.0.1:" + p.port(), p.pid(), p.cell(),
                    p.instanceGuid(), false);
        }
    }

    private void probe(int r, String target, String guid, int index, String address, long pid, String cell,
            String instance, boolean evacuating) {
        long invoke = clock.now();
        JsonNode answer = null;
        String error = null;
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://" + address + "/"))
                    .timeout(Duration.ofSeconds(1)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                answer = Json.tree(response.body());
            } else {
                error = "status " + response.statusCode();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = "interrupted";
        } catch (Exception e) {
            error = e.getClass().getSimpleName();
        }
        history.add(new Entry.Probe(r, target, guid, index, address, (int) pid, cell, instance, evacuating, invoke,
                clock.now(), answer, error));
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
