package io.drover.rep.executor.process;

import io.drover.model.lrp.Action;
import io.drover.model.lrp.RunAction;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * Runs a composite action for one container (a plain {@code run} needs none of this): every {@code run} step is a
 * process launched like the main one (the instance's working directory, environment, logs and cgroup), made the tree's leader
 * (so the pid file names the step running now) and watched as part of the container's tree while it runs, so memory and
 * pid limits cover it and a stop kills it. Downloads run on threads of their own. The composition is asynchronous: no
 * thread waits for a step; a {@code timeout} or the end of a {@code codependent} kills the steps of its subtree.
 */
final class ActionTree {

    private final ProcessRuntime runtime;
    private final Downloads downloads;
    private final ProgressLines progress;
    private final BiFunction<ProcessContainer, RunAction, Map<String, String>> environment;

    ActionTree(ProcessRuntime runtime, Downloads downloads, ProgressLines progress,
            BiFunction<ProcessContainer, RunAction, Map<String, String>> environment) {
        this.runtime = runtime;
        this.downloads = downloads;
        this.progress = progress;
        this.environment = environment;
    }

    /**
     * Starts a container's tree: {@code started} once it runs (health from there on is the executor's business),
     * {@code ended} with the reason once the whole tree has ended, like a process exiting: cleanly ("exited with status
     * 0", what a task counts as success) or with the failure of the step that decided it.
     */
    void launch(ProcessContainer container, Action action, Consumer<ProcessContainer> started,
            BiConsumer<ProcessContainer, String> ended) {
        if (!container.isActive()) {
            container.settleWithoutProcess();
            return;
        }
        PlacedInstance instance = container.instance();
        try {
            runtime.sandbox().prepare(instance.sandboxed());
        } catch (IOException | RuntimeException e) {
            container.settleWithoutProcess();
            ended.accept(container, "failed to start: " + e.getMessage());
            return;
        }
        started.accept(container);
        run(container, action).whenCompleteAsync((ending, error) -> {
            // a tree that never launched a process (downloads only) has nothing left to reap
            container.settleWithoutProcess();
            runtime.sandbox().actionsEnded(instance.sandboxed());
            ended.accept(container, error != null ? "failed: " + error.getMessage()
                    : ending.succeeded() ? ExitStatus.describe(0) : ending.failure());
        }, runtime.scheduler());
    }

    /** How a tree (or a part of it) ended: cleanly, or with the reason of its failure. */
    record Ending(String failure) {

        static final Ending SUCCEEDED = new Ending(null);

        boolean succeeded() {
            return failure == null;
        }
    }

    /** Runs the tree; the future always completes normally, with how the tree ended. */
    CompletableFuture<Ending> run(ProcessContainer container, Action action) {
        return run(container, action, new Scope(null));
    }

    private CompletableFuture<Ending> run(ProcessContainer c, Action a, Scope scope) {
        if (scope.cancelled() || !c.isActive()) {
            return done("interrupted");
        }
        return switch (a.kind()) {
            case RUN -> step(c, a.run(), scope);
            case DOWNLOAD -> download(c, a.download());
            case SERIAL -> serial(c, a.serial().actions(), 0, scope);
            case PARALLEL -> parallel(c, a.parallel().actions(), scope);
            case CODEPENDENT -> codependent(c, a.codependent().actions(), scope);
            case TIMEOUT -> timeout(c, a.timeout(), scope);
            case TRY -> run(c, a.tryAction().action(), scope).thenApply(ignored -> Ending.SUCCEEDED);
            case EMIT_PROGRESS -> emitProgress(c, a.emitProgress(), scope);
        };
    }

    private CompletableFuture<Ending> step(ProcessContainer c, RunAction run, Scope scope) {
        Process process;
        long leaderPid;
        try {
            Sandbox.Launched launched = runtime.sandbox().launch(c.instance().sandboxed(), run,
                    environment.apply(c, run), Sandbox.Role.STEP);
            process = launched.process();
            leaderPid = launched.leaderPid();
        } catch (IOException | RuntimeException e) {
            return done("failed to start: " + e.getMessage());
        }
        ProcessIdentity identity = ProcTable.stat(leaderPid).map(ProcessIdentity::of)
                .orElse(new ProcessIdentity(leaderPid, -1));
        long session = runtime.launcher().usesSessions() ? process.pid() : 0;
        Step step = new Step(identity, session);
        c.tree().monitorRunning(identity, true);
        scope.add(step);
        if (!c.attach(process, identity, session)) {
            step.kill();
        }
        return process.onExit().thenApplyAsync(exited -> {
            c.tree().monitorRunning(identity, false);
            scope.remove(step);
            int status = exited.exitValue();
            return status == 0 ? Ending.SUCCEEDED : new Ending(ExitStatus.describe(status));
        }, runtime.scheduler());
    }

    private CompletableFuture<Ending> download(ProcessContainer c, Action.Download d) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                downloads.fetch(d, c.instance().dir().app());
                runtime.sandbox().downloaded(c.instance().sandboxed());
                return Ending.SUCCEEDED;
            } catch (IOException | RuntimeException e) {
                return new Ending("download failed: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Ending("download interrupted");
            }
        }, Downloads.THREADS);
    }

    private CompletableFuture<Ending> serial(ProcessContainer c, List<Action> actions, int from, Scope scope) {
        if (from == actions.size()) {
            return CompletableFuture.completedFuture(Ending.SUCCEEDED);
        }
        return run(c, actions.get(from), scope).thenCompose(ending -> ending.succeeded()
                ? serial(c, actions, from + 1, scope) : CompletableFuture.completedFuture(ending));
    }

    /** All at once; done when all are, with the first failure in the order the actions are listed. */
    private CompletableFuture<Ending> parallel(ProcessContainer c, List<Action> actions, Scope scope) {
        List<CompletableFuture<Ending>> all = actions.stream().map(a -> run(c, a, scope)).toList();
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).thenApply(ignored -> all.stream()
                .map(CompletableFuture::join).filter(e -> !e.succeeded()).findFirst().orElse(Ending.SUCCEEDED));
    }

    /** All at once; the first to end ends it (the others are stopped), with its outcome. */
    private CompletableFuture<Ending> codependent(ProcessContainer c, List<Action> actions, Scope scope) {
        Scope group = new Scope(scope);
        List<CompletableFuture<Ending>> all = actions.stream().map(a -> run(c, a, group)).toList();
        return CompletableFuture.anyOf(all.toArray(CompletableFuture[]::new)).thenApply(first -> {
            group.cancel();
            return (Ending) first;
        });
    }

    private CompletableFuture<Ending> timeout(ProcessContainer c, Action.Timeout t, Scope scope) {
        Scope inner = new Scope(scope);
        CompletableFuture<Ending> body = run(c, t.action(), inner);
        CompletableFuture<Ending> expired = new CompletableFuture<>();
        ScheduledFuture<?> timer = runtime.scheduler().schedule(() -> expired.complete(new Ending("exceeded "
                + t.timeoutMs() + " ms timeout")), t.timeoutMs(), TimeUnit.MILLISECONDS);
        return CompletableFuture.anyOf(body, expired).thenApply(first -> {
            timer.cancel(false);
            if (!body.isDone()) {
                inner.cancel();
            }
            return (Ending) first;
        });
    }

    private CompletableFuture<Ending> emitProgress(ProcessContainer c, Action.EmitProgress p, Scope scope) {
        progress.emit(c.instance().journal(), p.startMessage());
        return run(c, p.action(), scope).thenApply(ending -> {
            if (ending.succeeded()) {
                progress.emit(c.instance().journal(), p.successMessage());
            } else if (p.failureMessagePrefix() != null && !p.failureMessagePrefix().isEmpty()) {
                progress.emit(c.instance().journal(), p.failureMessagePrefix() + ": " + ending.failure());
            }
            return ending;
        });
    }

    private static CompletableFuture<Ending> done(String failure) {
        return CompletableFuture.completedFuture(new Ending(failure));
    }

    /** A running step: its process and the session it leads. */
    private record Step(ProcessIdentity identity, long session) {

        void kill() {
            Signals.kill(ProcTable.read().members(new TreeRoots(identity, session, Set.of())));
        }
    }

    /** The steps started within one subtree, so a timeout or a codependent end can stop exactly those. */
    private static final class Scope {

        private final Scope parent;
        private final List<Step> steps = new ArrayList<>();
        private final List<Scope> children = new ArrayList<>();
        private boolean cancelled;

        Scope(Scope parent) {
            this.parent = parent;
            if (parent != null) {
                parent.adopt(this);
            }
        }

        private synchronized void adopt(Scope child) {
            children.add(child);
        }

        synchronized void add(Step step) {
            steps.add(step);
            if (cancelled()) {
                step.kill();
            }
        }

        synchronized void remove(Step step) {
            steps.remove(step);
        }

        boolean cancelled() {
            synchronized (this) {
                if (cancelled) {
                    return true;
                }
            }
            return parent != null && parent.cancelled();
        }

        void cancel() {
            List<Step> running;
            List<Scope> nested;
            synchronized (this) {
                cancelled = true;
                running = List.copyOf(steps);
                nested = List.copyOf(children);
            }
            running.forEach(Step::kill);
            nested.forEach(Scope::cancel);
        }
    }
}
