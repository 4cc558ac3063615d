package io.drover.rep.executor.container;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The OCI runtime's command line ({@code runc}; {@code crun} takes the same verbs): {@code run} keeps the rep's child
 * as the container's parent until its init exits and passes on its exit status (and leaves the stopped container,
 * cgroup included, for {@code delete}), {@code exec} does the same for one
 * more process in it, {@code create} makes a container whose init waits (the idle holder of a composite action's
 * steps), {@code delete --force} removes one. Their own output goes to the instance's stdout/stderr files, and so
 * does the container's, through the same descriptors: nothing is piped through the rep.
 */
final class OciRuntime {

    private static final File DEV_NULL = new File("/dev/null");

    private static final Duration PID_WAIT = Duration.ofSeconds(30);

    private final Path binary;

    private final Path stateDir;

    private final Optional<Path> setsid;

    OciRuntime(Path binary, Path stateDir) {
        this.binary = binary;
        this.stateDir = stateDir;
        this.setsid = Optional.of(Path.of("/usr/bin/setsid")).filter(Files::isExecutable);
    }

    Path binary() {
        return binary;
    }

    /** Finds the runtime: {@code auto} prefers crun, then runc, on the usual paths; anything else is a path. */
    static Optional<Path> locate(String setting) {
        if (!"auto".equals(setting)) {
            return Optional.of(Path.of(setting)).filter(Files::isExecutable);
        }
        return List.of("crun", "runc").stream()
                .flatMap(name -> List.of("/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin", "/bin", "/sbin")
                        .stream().map(d -> Path.of(d, name)))
                .filter(Files::isExecutable).findFirst();
    }

    /** Starts the container of the bundle; returns the runtime process once the init's host pid is known. */
    Started run(Path bundle, String id, Path pidFile, Path stdout, Path stderr) throws IOException {
        // --keep: the cgroup outlives the init, so an OOM kill can still be read from it once the init has died
        Process process = start(List.of("run", "--keep", "--bundle", bundle.toString(), "--pid-file",
                pidFile.toString(), id), stdout, stderr);
        return new Started(process, awaitPid(pidFile, process, "run"));
    }

    /** Runs one more process in a container; the runtime process exits with its status. */
    Started exec(String id, Path processJson, Path pidFile, Path stdout, Path stderr) throws IOException {
        Process process = start(List.of("exec", "--process", processJson.toString(), "--pid-file",
                pidFile.toString(), id), stdout, stderr);
        return new Started(process, awaitPid(pidFile, process, "exec"));
    }

    /** Creates a container whose init waits to be started (it never is: processes are exec'd into it). */
    void create(Path bundle, String id, Path pidFile, Path stdout, Path stderr) throws IOException {
        Process process = start(List.of("create", "--bundle", bundle.toString(), "--pid-file", pidFile.toString(), id),
                stdout, stderr);
        int status = waitFor(process, PID_WAIT);
        if (status != 0) {
            throw new IOException(binary.getFileName() + " create exited with status " + status
                    + " (its reason is in the instance's stderr)");
        }
    }

    /** Kills and removes a container, whatever state it is in; a container that is not there is no error. */
    void delete(String id) {
        try {
            Process process = new ProcessBuilder(command(List.of("delete", "--force", id)))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            waitFor(process, Duration.ofSeconds(10));
        } catch (IOException e) {
            // nothing to remove, or nothing that can be done about it here
        }
    }

    /** Runs a runtime command to its end and returns its exit status and output (for the start-up check). */
    Result call(List<String> args, Duration timeout) throws IOException {
        Process process = new ProcessBuilder(command(args)).redirectErrorStream(true).start();
        int status = waitFor(process, timeout);
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return new Result(status, output);
    }

    record Result(int status, String output) {
    }

    /** A runtime process the rep holds, and the host pid of the process it started in the container. */
    record Started(Process process, long pid) {
    }

    private Process start(List<String> args, Path stdout, Path stderr) throws IOException {
        List<String> command = new ArrayList<>();
        // its own session: the rep's terminal signals never reach it, and it outlives the rep like a host process
        setsid.ifPresent(path -> command.addAll(List.of(path.toString(), "-w")));
        command.addAll(command(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(stdout.toFile()))
                .redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()));
        if (DEV_NULL.exists()) {
            builder.redirectInput(DEV_NULL);
        }
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
        return builder.start();
    }

    private List<String> command(List<String> args) {
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--root", stateDir.toString()));
        command.addAll(args);
        return command;
    }

    /** The pid the runtime writes once the container's process exists; a runtime that exits first has failed. */
    private static long awaitPid(Path pidFile, Process process, String verb) throws IOException {
        long deadline = System.nanoTime() + PID_WAIT.toNanos();
        long pause = TimeUnit.MILLISECONDS.toNanos(1);
        while (System.nanoTime() < deadline) {
            Optional<Long> pid = readPid(pidFile);
            if (pid.isPresent()) {
                return pid.get();
            }
            if (!process.isAlive()) {
                Optional<Long> late = readPid(pidFile);
                if (late.isPresent()) {
                    return late.get();
                }
                throw new IOException("the runtime's " + verb + " exited with status " + process.exitValue()
                        + " (its reason is in the instance's stderr)");
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(20));
        }
        process.destroyForcibly();
        throw new IOException("the runtime's " + verb + " wrote no pid within " + PID_WAIT.toSeconds() + " s");
    }

    private static Optional<Long> readPid(Path pidFile) {
        try {
            String text = Files.readString(pidFile).strip();
            return text.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(text));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static int waitFor(Process process, Duration timeout) throws IOException {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException("the runtime did not answer within " + timeout.toSeconds() + " s");
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
