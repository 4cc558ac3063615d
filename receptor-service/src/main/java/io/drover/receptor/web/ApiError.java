package io.drover.receptor.web;

/** The one error shape of the receptor API (Diego receptor v1): {@code {"name": "...", "message": "..."}}. */
public record ApiError(String name, String message) {

    public static final String INVALID_JSON = "InvalidJSON";
    public static final String INVALID_LRP = "InvalidLRP";
    public static final String INVALID_TASK = "InvalidTask";
    public static final String TASK_GUID_ALREADY_EXISTS = "TaskGuidAlreadyExists";
    public static final String TASK_NOT_FOUND = "TaskNotFound";
    public static final String TASK_NOT_DELETABLE = "TaskNotDeletable";
    public static final String TASK_NOT_CANCELABLE = "TaskNotCancelable";
    public static final String TOO_MANY_TASKS = "TooManyTasks";
    public static final String INVALID_DOMAIN = "InvalidDomain";
    public static final String INVALID_REQUEST = "InvalidRequest";
    public static final String DESIRED_LRP_ALREADY_EXISTS = "DesiredLRPAlreadyExists";
    public static final String DESIRED_LRP_NOT_FOUND = "DesiredLRPNotFound";
    public static final String ACTUAL_LRP_INDEX_NOT_FOUND = "ActualLRPIndexNotFound";
    public static final String DEPLOYMENT_NOT_FOUND = "DeploymentNotFound";
    public static final String CELL_NOT_FOUND = "CellNotFound";
    public static final String CELL_GONE = "CellGone";
    public static final String RESOURCE_CONFLICT = "ResourceConflict";
    /** 410: a stream resumed after an event older than the retention (SPEC 18). */
    public static final String EVENTS_EXPIRED = "EventsExpired";
    public static final String UNAUTHORIZED = "Unauthorized";
    public static final String FORBIDDEN = "Forbidden";
    public static final String UNKNOWN_ERROR = "UnknownError";
}
