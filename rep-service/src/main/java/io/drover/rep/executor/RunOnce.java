package io.drover.rep.executor;

/**
 * How a run-once container (a task's) tells how its action ended: it ends CRASHED like any container whose process
 * exited, and the reason of a clean exit is {@link #SUCCEEDED}, word for word (the process executor's "exited with
 * status 0"); any other reason is the failure.
 */
public final class RunOnce {

    /** The reason a container that exited with status 0 reports. */
    public static final String SUCCEEDED = "exited with status 0";

    /** The most of a task's result file a cell reads and reports (SPEC 13: the first 10 KiB). */
    public static final int MAX_RESULT_BYTES = 10 * 1024;

    private RunOnce() {
    }

    /** Whether the container's action has ended (it cannot be running again). */
    public static boolean ended(Container c) {
        return c.state() == ContainerState.CRASHED || c.state() == ContainerState.STOPPED;
    }

    /** Whether the container's action ended cleanly. */
    public static boolean succeeded(Container c) {
        return c.state() == ContainerState.CRASHED && SUCCEEDED.equals(c.reason());
    }
}
