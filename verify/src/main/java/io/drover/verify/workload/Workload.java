package io.drover.verify.workload;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

/**
 * What the clients share: the key space (a few process guids, so that they collide), the marker of the run's
 * processes, the address instances listen on, the task file, the callback server's URL, and the tasks submitted so far
 * (so that any client may resubmit, cancel or delete one).
 */
public final class Workload {

    private final String runId;
    private final List<String> lrpKeys;
    private final String marker;
    private final String bind;
    private final Path taskRuns;
    private final String callbackUrl;
    private final List<Submitted> tasks = new CopyOnWriteArrayList<>();
    private final AtomicLong labels = new AtomicLong();
    private final AtomicLong taskNumbers = new AtomicLong();

    /** A task submission: its body, and whether it asks for a callback. */
    public record Submitted(String guid, String body, boolean callback) {
    }

    public Workload(String runId, List<String> lrpKeys, String marker, String bind, Path taskRuns, String callbackUrl) {
        this.runId = runId;
        this.lrpKeys = List.copyOf(lrpKeys);
        this.marker = marker;
        this.bind = bind;
        this.taskRuns = taskRuns;
        this.callbackUrl = callbackUrl;
    }

    public static List<String> keys(String runId, int count) {
        return IntStream.range(0, count).mapToObj(i -> runId + "-lrp-" + i).toList();
    }

    public List<String> lrpKeys() {
        return lrpKeys;
    }

    public String marker() {
        return marker;
    }

    /** The address an instance's web server listens on. */
    public String bind() {
        return bind;
    }

    public Path taskRuns() {
        return taskRuns;
    }

    /** A label no definition had before: {@code <guid>-c<n>} for a create, {@code -d<n>} for a deployment. */
    String label(String guid, String kind) {
        return guid + "-" + kind + labels.incrementAndGet();
    }

    String nextTaskGuid() {
        return runId + "-task-" + taskNumbers.incrementAndGet();
    }

    String callbackUrl(String taskGuid) {
        return callbackUrl + "/" + taskGuid;
    }

    void submitted(Submitted task) {
        tasks.add(task);
    }

    /** The last {@code n} tasks submitted, newest last. */
    List<Submitted> recent(int n) {
        List<Submitted> all = List.copyOf(tasks);
        return all.subList(Math.max(0, all.size() - n), all.size());
    }
}
