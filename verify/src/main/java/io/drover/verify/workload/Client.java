package io.drover.verify.workload;

import io.drover.verify.history.Entry;
import io.drover.verify.history.Kinds;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * One client of the random workload: until told to stop, picks an operation by weight, on a random key of the small
 * key space, calls it and records it, then pauses 50-300 ms. Its random numbers come from the run's seed and its
 * number, so a seed replays the same choices (the cluster's answers, and so what follows from them, may differ).
 */
public final class Client implements Runnable {

    private final String name;
    private final Random random;
    private final ApiClient api;
    private final Workload workload;
    private final Hostile hostile;
    private final BooleanSupplier running;

    public Client(int number, long seed, ApiClient api, Workload workload, BooleanSupplier running) {
        this.name = "c" + number;
        this.random = new Random(seed * 1_000_003 + number);
        this.api = api;
        this.workload = workload;
        this.hostile = new Hostile(api.authorization());
        this.running = running;
    }

    @Override
    public void run() {
        while (running.getAsBoolean()) {
            step();
            pause(50 + random.nextInt(250));
        }
    }

    /** One operation, chosen by weight. */
    void step() {
        String key = pick(workload.lrpKeys());
        int roll = random.nextInt(100);
        if (roll < 15) {
            api.call(name, Kinds.READ_DESIRED, key, "GET", "/v1/desired_lrps/" + key, null, null);
        } else if (roll < 23) {
            api.call(name, Kinds.DESIRE, key, "POST", "/v1/desired_lrps", null,
                    Bodies.lrp(key, random.nextInt(4), workload.label(key, "c"), workload.marker(),
                            workload.bind()));
        } else if (roll < 33) {
            api.call(name, Kinds.UPDATE, key, "PUT", "/v1/desired_lrps/" + key, null, update());
        } else if (roll < 45) {
            compareAndSet(key);
        } else if (roll < 49) {
            api.call(name, Kinds.DELETE, key, "DELETE", "/v1/desired_lrps/" + key, null, null);
        } else if (roll < 54) {
            api.call(name, Kinds.DEPLOY, key, "POST", "/v1/desired_lrps/" + key + "/deployments", null,
                    Bodies.deployment(key, workload.label(key, "d"), workload.marker(), workload.bind()));
        } else if (roll < 56) {
            api.call(name, Kinds.DEPLOY_BROKEN, key, "POST", "/v1/desired_lrps/" + key + "/deployments", null,
                    Bodies.brokenDeployment(key, workload.label(key, "b"), workload.marker()));
        } else if (roll < 62) {
            int index = random.nextInt(3);
            api.call(name, Kinds.RESTART, key, "DELETE", "/v1/actual_lrps/" + key + "/index/" + index, null, null);
        } else if (roll < 72) {
            submitTask();
        } else if (roll < 85) {
            onATask(roll);
        } else if (roll < 90) {
            task(Kinds.TASK_READ, "GET", "");
        } else if (roll < 95) {
            api.call(name, Kinds.LIST_DESIRED, "*", "GET", "/v1/desired_lrps", null, null);
        } else {
            Hostile.Request r = hostile.next(random, key);
            api.raw(name, r.kind(), key, r.method(), r.path(), r.headers(), r.body(), r.shown());
        }
    }

    private String update() {
        return switch (random.nextInt(3)) {
            case 0 -> "{\"instances\": " + random.nextInt(4) + "}";
            case 1 -> "{\"annotation\": \"" + name + "-" + random.nextInt(1_000_000) + "\"}";
            default -> "{\"instances\": " + random.nextInt(4) + ", \"annotation\": \"" + name + "-"
                    + random.nextInt(1_000_000) + "\"}";
        };
    }

    /** Read, then write with the tag read in If-Match: the compare-and-set of SPEC 5. */
    private void compareAndSet(String key) {
        Entry.Call read = api.call(name, Kinds.READ_DESIRED, key, "GET", "/v1/desired_lrps/" + key, null, null);
        if (read.status() == 200 && read.etag() != null) {
            pause(random.nextInt(100));
            api.call(name, Kinds.UPDATE_IF_MATCH, key, "PUT", "/v1/desired_lrps/" + key, read.etag(), update());
        }
    }

    private void submitTask() {
        String guid = workload.nextTaskGuid();
        boolean callback = random.nextBoolean();
        String body = Bodies.task(guid, workload.taskRuns(), 100 + random.nextInt(1900),
                callback ? workload.callbackUrl(guid) : null, workload.marker());
        Entry.Call call = api.call(name, Kinds.TASK_SUBMIT, guid, "POST", "/v1/tasks", null, body);
        if (call.status() == 201 || call.status() == 200 || !call.answered() || call.status() >= 500) {
            workload.submitted(new Workload.Submitted(guid, body, callback));
        }
    }

    private void onATask(int roll) {
        if (roll < 77) {
            Workload.Submitted task = pickTask();
            if (task != null) {
                api.call(name, Kinds.TASK_RESUBMIT, task.guid(), "POST", "/v1/tasks", null, task.body());
            }
        } else if (roll < 79) {
            Workload.Submitted task = pickTask();
            if (task != null) {
                // the same guid with another body: 409 TaskGuidAlreadyExists, and nothing runs
                api.call(name, Kinds.HOSTILE, task.guid(), "POST", "/v1/tasks", null,
                        task.body().replace("\"memory_mb\": 16", "\"memory_mb\": 17"));
            }
        } else if (roll < 82) {
            task(Kinds.TASK_CANCEL, "POST", "/cancel");
        } else {
            Workload.Submitted task = pickTask();
            if (task != null && !task.callback()) {
                api.call(name, Kinds.TASK_DELETE, task.guid(), "DELETE", "/v1/tasks/" + task.guid(), null, null);
            }
        }
    }

    private void task(String kind, String method, String suffix) {
        Workload.Submitted task = pickTask();
        if (task != null) {
            api.call(name, kind, task.guid(), method, "/v1/tasks/" + task.guid() + suffix, null, null);
        }
    }

    /** One of the last eight tasks: resubmits and cancels of tasks long done say little. */
    private Workload.Submitted pickTask() {
        List<Workload.Submitted> recent = workload.recent(8);
        return recent.isEmpty() ? null : recent.get(random.nextInt(recent.size()));
    }

    private String pick(List<String> keys) {
        return keys.get(random.nextInt(keys.size()));
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
