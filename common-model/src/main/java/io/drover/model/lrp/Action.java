package io.drover.model.lrp;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;

/**
 * What an instance or a task runs: Diego's composable action language. Exactly one kind is set, and its JSON is the
 * kind's name around its fields: {@code {"run": {...}}}, {@code {"serial": {"actions": [...]}}},
 * {@code {"timeout": {"action": {...}, "timeout_ms": 1000}}} and so on. A plain {@code {"run": ...}}, the only form
 * before the other kinds existed, reads and writes exactly as it always did.
 *
 * <ul>
 * <li>{@code run}: one process;</li>
 * <li>{@code download}: fetch {@code from} (http, https or file URL) into {@code to} in the instance directory,
 * extracting tar, tgz and zip archives; with a {@code cache_key} the artifact is kept on the cell for the next one;</li>
 * <li>{@code serial}: one after the other, stopping at the first failure;</li>
 * <li>{@code parallel}: all at once, done when all are, failing with the first failure;</li>
 * <li>{@code codependent}: all at once, done when any one is (the others are stopped), failing if it failed;</li>
 * <li>{@code timeout}: fails the inner action (and stops it) after {@code timeout_ms};</li>
 * <li>{@code try}: runs the inner action and swallows its failure;</li>
 * <li>{@code emit_progress}: logs a start message, then a success message or the failure prefixed.</li>
 * </ul>
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Action(RunAction run, Download download, Serial serial, Parallel parallel, Codependent codependent,
        Timeout timeout, @JsonProperty("try") Try tryAction, EmitProgress emitProgress) {

    /** A single process: the shape every action had before the composite kinds. */
    public Action(RunAction run) {
        this(run, null, null, null, null, null, null, null);
    }

    public static Action downloading(String from, String to, String cacheKey) {
        return new Action(null, new Download(from, to, cacheKey), null, null, null, null, null, null);
    }

    public static Action inSerial(List<Action> actions) {
        return new Action(null, null, new Serial(actions), null, null, null, null, null);
    }

    public static Action inParallel(List<Action> actions) {
        return new Action(null, null, null, new Parallel(actions), null, null, null, null);
    }

    public static Action codependently(List<Action> actions) {
        return new Action(null, null, null, null, new Codependent(actions), null, null, null);
    }

    public static Action withTimeout(Action action, long timeoutMs) {
        return new Action(null, null, null, null, null, new Timeout(action, timeoutMs), null, null);
    }

    public static Action trying(Action action) {
        return new Action(null, null, null, null, null, null, new Try(action), null);
    }

    public static Action emittingProgress(Action action, String startMessage, String successMessage,
            String failureMessagePrefix) {
        return new Action(null, null, null, null, null, null, null,
                new EmitProgress(action, startMessage, successMessage, failureMessagePrefix));
    }

    /** Which kind this is; null when no kind (or, in a hand-built value, more than one) is set. */
    @JsonIgnore
    public Kind kind() {
        List<Kind> set = new ArrayList<>(1);
        addIf(set, run, Kind.RUN);
        addIf(set, download, Kind.DOWNLOAD);
        addIf(set, serial, Kind.SERIAL);
        addIf(set, parallel, Kind.PARALLEL);
        addIf(set, codependent, Kind.CODEPENDENT);
        addIf(set, timeout, Kind.TIMEOUT);
        addIf(set, tryAction, Kind.TRY);
        addIf(set, emitProgress, Kind.EMIT_PROGRESS);
        return set.size() == 1 ? set.get(0) : null;
    }

    /** The actions this one wraps or combines, in order (none for run and download). */
    @JsonIgnore
    public List<Action> children() {
        Kind kind = kind();
        if (kind == null) {
            return List.of();
        }
        return switch (kind) {
            case RUN, DOWNLOAD -> List.of();
            case SERIAL -> serial.actions();
            case PARALLEL -> parallel.actions();
            case CODEPENDENT -> codependent.actions();
            case TIMEOUT -> single(timeout.action());
            case TRY -> single(tryAction.action());
            case EMIT_PROGRESS -> single(emitProgress.action());
        };
    }

    /** Whether this is a single {@code run}: what an executor can start as one process with nothing around it. */
    @JsonIgnore
    public boolean isPlainRun() {
        return kind() == Kind.RUN;
    }

    /** Every {@code run} in the tree, depth first. */
    @JsonIgnore
    public List<RunAction> runs() {
        List<RunAction> runs = new ArrayList<>();
        collectRuns(this, runs);
        return runs;
    }

    private static void collectRuns(Action action, List<RunAction> runs) {
        if (action.run != null) {
            runs.add(action.run);
        }
        action.children().forEach(child -> collectRuns(child, runs));
    }

    private static List<Action> single(Action action) {
        return action == null ? List.of() : List.of(action);
    }

    private static void addIf(List<Kind> set, Object part, Kind kind) {
        if (part != null) {
            set.add(kind);
        }
    }

    /** The action kinds, by their JSON names. */
    public enum Kind {
        RUN("run"), DOWNLOAD("download"), SERIAL("serial"), PARALLEL("parallel"), CODEPENDENT("codependent"),
        TIMEOUT("timeout"), TRY("try"), EMIT_PROGRESS("emit_progress");

        private final String jsonName;

        Kind(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }
    }

    /** Fetches {@code from} into {@code to} (relative to the instance directory); archives are extracted there. */
    public record Download(String from, String to, String cacheKey) {
    }

    /** One after the other; the first failure ends it. */
    public record Serial(List<Action> actions) {
        public Serial {
            actions = actions == null ? List.of() : List.copyOf(actions);
        }
    }

    /** All at once; done when all are, failing with the first failure. */
    public record Parallel(List<Action> actions) {
        public Parallel {
            actions = actions == null ? List.of() : List.copyOf(actions);
        }
    }

    /** All at once; done when the first one is (the others are stopped), with its outcome. */
    public record Codependent(List<Action> actions) {
        public Codependent {
            actions = actions == null ? List.of() : List.copyOf(actions);
        }
    }

    /** Fails the inner action, and stops it, once {@code timeoutMs} have passed. */
    public record Timeout(Action action, long timeoutMs) {
    }

    /** Runs the inner action; its failure is not a failure of this one. */
    public record Try(Action action) {
    }

    /** Logs {@code startMessage}, then {@code successMessage} or {@code failureMessagePrefix} with the failure. */
    public record EmitProgress(Action action, String startMessage, String successMessage,
            String failureMessagePrefix) {
    }
}
