package io.drover.verify.history;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * One line of a history. Times are microseconds since the run started, on one monotonic clock; {@link Meta} holds the
 * wall-clock time of that start, so that the services' own timestamps ({@code since}) can be placed on it.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({ @JsonSubTypes.Type(value = Entry.Meta.class, name = "meta"),
        @JsonSubTypes.Type(value = Entry.Call.class, name = "call"),
        @JsonSubTypes.Type(value = Entry.Event.class, name = "event"),
        @JsonSubTypes.Type(value = Entry.Stream.class, name = "stream"),
        @JsonSubTypes.Type(value = Entry.Probe.class, name = "probe"),
        @JsonSubTypes.Type(value = Entry.Fault.class, name = "fault"),
        @JsonSubTypes.Type(value = Entry.Callback.class, name = "callback"),
        @JsonSubTypes.Type(value = Entry.Snapshot.class, name = "snapshot"),
        @JsonSubTypes.Type(value = Entry.TaskRun.class, name = "task_run"),
        @JsonSubTypes.Type(value = Entry.Phase.class, name = "phase") })
public sealed interface Entry {

    /** When the entry happened (its end, for an interval). */
    long at();

    /**
     * The run: its seed, when it started (wall clock, ms since the epoch), the settings that bound its checks (in
     * seconds: presence TTL, sync interval, stop grace, convergence deadline), and the process guids of its key space.
     */
    record Meta(String runId, long seed, long startedAtEpochMs, String mode, List<String> lrpKeys,
            Timings timings) implements Entry {
        @Override
        public long at() {
            return 0;
        }
    }

    /** The cluster's clocks that bound what the checks allow (seconds). */
    record Timings(double presenceTtl, double syncInterval, double stopGrace, double convergenceDeadline,
            double evacuatingSyncInterval) {
    }

    /**
     * One API call as a client made it: who ({@code process}: a client, the prober, the hostile client), what kind
     * ({@link Kinds}), on which key, the request, and its answer ({@code status} 0: no answer, the outcome is unknown).
     * {@code round} is the prober's round for its listings, else -1.
     */
    record Call(String process, String kind, String key, String method, String path, String ifMatch,
            String requestBody, long invoke, long complete, int status, String etag, String body, String error,
            int round) implements Entry {
        @Override
        public long at() {
            return complete;
        }

        public boolean answered() {
            return status > 0;
        }
    }

    /** One server-sent event of {@code GET /v1/events}, on connection {@code stream}. */
    record Event(int stream, String id, String name, JsonNode data, long received) implements Entry {
        @Override
        public long at() {
            return received;
        }

        /** Read from the Kafka topic (a negative stream number), not from an SSE stream of the API. */
        public boolean fromKafka() {
            return stream < 0;
        }
    }

    /** An event stream opened or closed ({@code kind}: opened, closed). */
    record Stream(int stream, String kind, long at, String note) implements Entry {
    }

    /**
     * One HTTP request to a workload: to an address the API listed ({@code target} listed, with the record as listed
     * in the same round) or to a process found on the machine ({@code target} process, with its pid, cell and the
     * instance guid of its environment). {@code answer} is what it said (process guid, index, instance guid, label),
     * null when it did not answer.
     */
    record Probe(int round, String target, String processGuid, int index, String address, int pid, String cell,
            String instanceGuid, boolean evacuating, long invoke, long complete, JsonNode answer, String error)
            implements Entry {
        @Override
        public long at() {
            return complete;
        }
    }

    /** A fault the run injected: what, on what, from {@code start} until healed at {@code end}. */
    record Fault(String kind, String target, long start, long end, String note) implements Entry {
        @Override
        public long at() {
            return end;
        }
    }

    /** A completion callback the checker's server received, and the status it answered. */
    record Callback(String taskGuid, long received, int answered, JsonNode task) implements Entry {
        @Override
        public long at() {
            return received;
        }
    }

    /**
     * The cluster as the API and the machine showed it once faults and clients had stopped: desired LRPs, actual LRPs,
     * cells, tasks, deployments by process guid, and the workload processes alive (pid, process guid, index, instance
     * guid, label, cell).
     */
    record Snapshot(long at, JsonNode desired, JsonNode actuals, JsonNode cells, JsonNode tasks, JsonNode deployments,
            List<WorkloadProcess> processes) implements Entry {
    }

    /** A workload process found on the machine. */
    record WorkloadProcess(long pid, String processGuid, int index, String instanceGuid, String label, String cell,
            int port) {
    }

    /** One line a task appended to its file: {@code start} or {@code end} of its action, when (wall clock, ms). */
    record TaskRun(String taskGuid, String mark, long atEpochMs, String nonce) implements Entry {
        @Override
        public long at() {
            return 0;
        }
    }

    /** The run moved on: {@code workload} (clients start), {@code healed} (faults stop), {@code quiescent}, ... */
    record Phase(String name, long at) implements Entry {
    }
}
