package io.drover.receptor.task;

import io.drover.model.lrp.Action;
import io.drover.model.task.TaskDefinition;
import io.drover.receptor.validation.ActionJson;
import io.drover.receptor.validation.FieldErrors;
import io.drover.receptor.validation.JsonFields;
import io.drover.receptor.validation.Values;
import io.drover.receptor.web.ApiError;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The task submission of SPEC 13, parsed from a JSON tree and validated rule by rule. Pure: the same tree always gives
 * the same definition or the same InvalidTask naming every bad field by its path.
 */
final class TaskRequests {

    static final Pattern TASK_GUID = Pattern.compile("[a-zA-Z0-9_-]{1,128}");
    static final int MAX_ANNOTATION_BYTES = 10 * 1024;
    private static final int MAX_NAME = 256;
    private static final int MAX_PATH = 4096;

    static final Set<String> FIELDS = Set.of("task_guid", "domain", "rootfs", "action", "env", "memory_mb", "disk_mb",
            "cpu_weight", "max_pids", "placement_tags", "result_file", "completion_callback_url", "annotation",
            "log_guid", "metrics_guid");

    private TaskRequests() {
    }

    /** A validated submission, or InvalidTask naming every bad field. */
    static TaskDefinition create(JsonNode body) {
        List<String> errors = new ArrayList<>();
        JsonFields f = new JsonFields(body, "", errors);
        f.rejectUnknown(FIELDS);
        String taskGuid = f.string("task_guid", true, 128, s -> TASK_GUID.matcher(s).matches());
        String domain = f.string("domain", true, MAX_NAME, s -> !s.isBlank());
        String rootfs = f.string("rootfs", true, 1024, Values::isUriWithScheme);
        Action action = ActionJson.action(f, "action", true);
        TaskDefinition definition = new TaskDefinition(taskGuid, domain, rootfs, action, ActionJson.env(f, "env"),
                f.integer("memory_mb", 0, Integer.MAX_VALUE, 0), f.integer("disk_mb", 0, Integer.MAX_VALUE, 0),
                f.integer("cpu_weight", 0, 100, 0), f.integer("max_pids", 0, Integer.MAX_VALUE, 0),
                f.strings("placement_tags", MAX_NAME, s -> !s.isEmpty()),
                f.string("result_file", false, MAX_PATH, Values::isRelativeFileInside),
                f.string("completion_callback_url", false, MAX_PATH, Values::isHttpUrl),
                f.string("annotation", false, MAX_ANNOTATION_BYTES, s -> true),
                f.string("log_guid", false, MAX_NAME, s -> true), f.string("metrics_guid", false, MAX_NAME, s -> true));
        FieldErrors.throwIfAny(ApiError.INVALID_TASK, errors);
        return definition;
    }
}
