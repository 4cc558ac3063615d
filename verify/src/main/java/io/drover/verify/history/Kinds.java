package io.drover.verify.history;

/** The kinds of {@link Entry.Call}: what the client meant by it. */
public final class Kinds {

    public static final String DESIRE = "desire";
    public static final String UPDATE = "update";
    public static final String UPDATE_IF_MATCH = "update-if-match";
    public static final String DELETE = "delete";
    public static final String READ_DESIRED = "read-desired";
    public static final String LIST_DESIRED = "list-desired";
    public static final String LIST_ACTUALS = "list-actuals";
    public static final String LIST_CELLS = "list-cells";
    public static final String LIST_TASKS = "list-tasks";
    public static final String DEPLOY = "deploy";
    public static final String DEPLOY_BROKEN = "deploy-broken";
    public static final String RESTART = "restart";
    public static final String TASK_SUBMIT = "task-submit";
    public static final String TASK_RESUBMIT = "task-resubmit";
    public static final String TASK_CANCEL = "task-cancel";
    public static final String TASK_DELETE = "task-delete";
    public static final String TASK_READ = "task-read";
    public static final String HOSTILE = "hostile";

    private Kinds() {
    }
}
